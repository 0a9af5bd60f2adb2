import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// Pushed authorization requests (RFC 9126) in the browser flow.
@Suite struct PushedAuthorizationTests {
    static let parEndpoint = Fixtures.issuer + "/protocol/openid-connect/ext/par/request"
    static let requestURI = "urn:ietf:params:oauth:request_uri:abc-123"

    let transport = FakeTransport()
    let opener = RecordingOpener()
    let receiver = ScriptedReceiver()
    let printed = PrintedURL()
    let sleeper = FakeSleeper()

    init() {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        // The check before the browser opens, where nothing is pushed: a sign-in page.
        transport.onAnyQuery(.get, Fixtures.authorizationEndpoint, FakeTransport.loginPage)
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        receiver.openedURL = { [opener, receiver, printed] in
            opener.opened.last.map { receiver.follow($0) } ?? printed.url ?? ""
        }
        // The provider answers with the state it was pushed, not one from the browser's URL.
        receiver.script = [{ [transport] _ in
            let pushed = transport.requests(to: Self.parEndpoint).last.map(formFields(of:)) ?? [:]
            return ["code": "c-1", "iss": Fixtures.issuer, "state": pushed["state"] ?? ""]
        }]
    }

    func login(openBrowser: Bool = true, par: PARMode = .auto, events: inout [FlowDriver.Event]) throws -> FlowDriver.Output {
        let login = FlowDriver(http: OAuthHTTP(transport), clock: FixedClock(time: Fixtures.now), random: FixedRandom(),
                          store: InMemorySecretStore(), opener: opener, receiver: receiver, sleeper: sleeper)
        var input = FlowDriver.Input(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth",
                                scope: "openid profile email", port: 0, timeout: 120, openBrowser: openBrowser)
        input.par = par
        var seen: [FlowDriver.Event] = []
        defer { events = seen }
        return try login.run(input) { [printed] event in
            seen.append(event)
            if case .authorizationURL(let url) = event { printed.url = url.reveal() }
        }
    }

    @Test func theRequestIsPushedWhenTheBrowserArrivesAndTheBrowserGetsOnlyClientIDAndRequestURI() throws {
        transport.on(.post, Self.parEndpoint, status: 201, json: #"{"request_uri":"\#(Self.requestURI)","expires_in":60}"#)
        var events: [FlowDriver.Event] = []
        let output = try login(events: &events)
        #expect(output.claims.preferredUsername == "alice")

        let pushed = formFields(of: try #require(transport.requests(to: Self.parEndpoint).first))
        #expect(pushed["client_id"] == "kcauth" && pushed["response_type"] == "code")
        #expect(pushed["code_challenge_method"] == "S256" && pushed["code_challenge"] != nil)
        #expect(pushed["state"] != nil && pushed["nonce"] != nil && pushed["redirect_uri"] == "http://127.0.0.1:50000/callback")
        #expect(pushed["code_verifier"] == nil, "the verifier stays with kcauth")

        let location = try #require(receiver.startLocation)
        #expect(location.hasPrefix(Fixtures.authorizationEndpoint + "?"))
        #expect(queryParameters(of: location) == ["client_id": "kcauth", "request_uri": Self.requestURI])
        // Nothing of the request in the printed line: it names a local start URL, not the one in argv.
        let shown = try #require(receiver.shownAt)
        #expect(shown != opener.opened.first)
        #expect(events.contains { if case .authorizationURL(let url) = $0 { url == shown } else { false } })
    }

    @Test func thePushComesBeforeTheBrowserOpensAndIsTheOnlyCheck() throws {
        transport.on(.post, Self.parEndpoint, status: 201, json: #"{"request_uri":"\#(Self.requestURI)","expires_in":60}"#)
        receiver.openedURL = { "" }  // the browser never follows the start URL
        receiver.script = [{ _ in [:] }]
        var events: [FlowDriver.Event] = []
        #expect(throws: KCAuthError.self) { try login(events: &events) }
        #expect(transport.requests(to: Self.parEndpoint).count == 1, "pushed before the browser opened")
        #expect(transport.requests(toAnyQueryOf: Fixtures.authorizationEndpoint).isEmpty,
                "the push is the check: the single-use request_uri is left for the browser")
        // A push that took the redirect URI leaves no doubt about the port.
        #expect(events.contains { if case .waiting(_, _, false) = $0 { true } else { false } })
    }

    @Test func aBrowserThatArrivesInTimeGetsThePushedRequestALateOneANewPush() throws {
        transport.on(.post, Self.parEndpoint, status: 201, json: #"{"request_uri":"\#(Self.requestURI)","expires_in":60}"#)
        var events: [FlowDriver.Event] = []
        _ = try login(events: &events)
        #expect(transport.requests(to: Self.parEndpoint).count == 1)
        #expect(queryParameters(of: try #require(receiver.startLocation))["request_uri"] == Self.requestURI)

        let late = PushedAuthorizationTests()
        late.transport.on(.post, Self.parEndpoint, status: 201, json: #"{"request_uri":"urn:ietf:params:oauth:request_uri:first","expires_in":60}"#)
        late.transport.on(.post, Self.parEndpoint, status: 201, json: #"{"request_uri":"urn:ietf:params:oauth:request_uri:second","expires_in":60}"#)
        late.receiver.openedURL = { [opener = late.opener, receiver = late.receiver, sleeper = late.sleeper] in
            sleeper.advance(51)  // the person came back after 51 s: 9 s of the first request_uri's life are left
            return opener.opened.last.map { receiver.follow($0) } ?? ""
        }
        late.receiver.script = [{ _ in ["code": "c-1", "iss": Fixtures.issuer, "state": ""] }]
        _ = try? late.login(events: &events)
        #expect(late.transport.requests(to: Self.parEndpoint).count == 2)
        #expect(queryParameters(of: try #require(late.receiver.startLocation))["request_uri"] == "urn:ietf:params:oauth:request_uri:second")
    }

    @Test func aRefusedPushEndsTheLoginBeforeTheBrowserOpens() throws {
        transport.on(.post, Self.parEndpoint, status: 400, json: #"{"error":"invalid_request","error_description":"no PAR today"}"#)
        var events: [FlowDriver.Event] = []
        let error = try #require(throws: KCAuthError.self) { try login(events: &events) }
        #expect(error.code == .provider && error.oauthError == .invalidRequest)
        #expect(error.message.contains("pushing the authorization request failed") && error.message.contains("invalid_request"))
        #expect(error.remedy == .checkClientOrSkipPushedAuthorization, "its words name neither the client nor the redirect URI")
        #expect(opener.opened.isEmpty && receiver.pages.isEmpty)
        #expect(transport.requests(to: Fixtures.tokenEndpoint).isEmpty)
    }

    @Test func aPushRefusedForTheClientOrTheRedirectURINamesThatSetting() throws {
        transport.on(.post, Self.parEndpoint, status: 401, json: #"{"error":"invalid_client","error_description":"Invalid client or Invalid client credentials"}"#)
        var events: [FlowDriver.Event] = []
        let client = try #require(throws: KCAuthError.self) { try login(events: &events) }
        guard case .checkClientOrRedirectURI(let refused)? = client.remedy else { Issue.record("\(String(describing: client.remedy))"); return }
        #expect(refused.suspect == .clientID && refused.clientID == "kcauth")

        let redirect = PushedAuthorizationTests()
        redirect.transport.on(.post, Self.parEndpoint, status: 400, json: #"{"error":"invalid_request","error_description":"Invalid parameter: redirect_uri"}"#)
        let error = try #require(throws: KCAuthError.self) { try redirect.login(events: &events) }
        guard case .checkClientOrRedirectURI(let refusal)? = error.remedy else { Issue.record("\(String(describing: error.remedy))"); return }
        #expect(refusal == RefusedAuthorization(suspect: .redirectURI, clientID: "kcauth", redirectURI: "http://127.0.0.1/callback",
                                                anyPortAccepted: true, fixedPortMayHelp: false))
        #expect(redirect.opener.opened.isEmpty)
    }

    @Test func alwaysWhereKeycloaksPathHasNothingFailsBeforeTheBrowserNamingAutoAndNever() throws {
        let plain = Fixtures.discovery.split(separator: "\n").filter { !$0.contains("pushed_authorization_request_endpoint") }.joined(separator: "\n")
        transport.replace(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: plain)
        // Keycloak's own "not found" is JSON, which must not read as the provider refusing the push.
        transport.on(.post, Self.parEndpoint, status: 404, json: #"{"error":"Unable to find matching target resource method"}"#)
        var events: [FlowDriver.Event] = []
        let error = try #require(throws: KCAuthError.self) { try login(par: .always, events: &events) }
        #expect(error.code == .configuration && error.remedy == .signInWithPAR([.auto, .never]))
        #expect(error.message.contains("Keycloak's PAR path answered HTTP 404"))
        #expect(opener.opened.isEmpty && !events.contains { if case .authorizationURL = $0 { true } else { false } })
    }

    @Test func withoutABrowserThePushHappensBeforeTheURLIsShown() throws {
        transport.on(.post, Self.parEndpoint, status: 201, json: #"{"request_uri":"\#(Self.requestURI)","expires_in":60}"#)
        var events: [FlowDriver.Event] = []
        _ = try login(openBrowser: false, events: &events)
        let shown = try #require(printed.url)
        #expect(queryParameters(of: shown) == ["client_id": "kcauth", "request_uri": Self.requestURI])
    }

    @Test func neverSendsTheOrdinaryRequest() throws {
        receiver.script = [LoginTests.answer(["code": "c-1", "iss": Fixtures.issuer])]
        var events: [FlowDriver.Event] = []
        _ = try login(par: .never, events: &events)
        #expect(transport.requests(to: Self.parEndpoint).isEmpty)
        #expect(queryParameters(of: try #require(receiver.startLocation))["code_challenge"] != nil)
    }

    @Test func alwaysNeedsAnEndpointOrAKeycloakIssuer() throws {
        var metadata = try JSONDecoder().decode(ProviderMetadata.self, from: Data(Fixtures.discovery.utf8))
        metadata.pushedAuthorizationRequestEndpoint = nil
        #expect(try PushedAuthorization.endpoint(mode: .auto, metadata: metadata) == nil)
        #expect(try PushedAuthorization.endpoint(mode: .always, metadata: metadata) == Self.parEndpoint)
        metadata.issuer = "https://accounts.example.test"
        #expect(throws: KCAuthError.self) { try PushedAuthorization.endpoint(mode: .always, metadata: metadata) }
        #expect(try PushedAuthorization.endpoint(mode: .never, metadata: metadata) == nil)
    }

    @Test func aPushAnswerWithoutALifetimeOrWithABadURIIsRefused() {
        for body in [#"{"request_uri":"urn:x"}"#, #"{"request_uri":"","expires_in":60}"#, #"{"request_uri":"a b","expires_in":60}"#,
                     #"{"request_uri":"urn:x","expires_in":0}"#] {
            #expect(throws: (any Error).self) { try JSONDecoder().decode(PushedAuthorizationResponse.self, from: Data(body.utf8)) }
        }
    }
}
