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

    init() {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
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
                          store: InMemorySecretStore(), opener: opener, receiver: receiver, sleeper: FakeSleeper())
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
        // Nothing of the request in the printed line: it names the local start URL.
        #expect(events.contains { if case .authorizationURL(let url) = $0 { url == opener.opened.first } else { false } })
    }

    @Test func nothingIsPushedBeforeTheBrowserArrives() throws {
        transport.on(.post, Self.parEndpoint, status: 201, json: #"{"request_uri":"\#(Self.requestURI)","expires_in":60}"#)
        receiver.openedURL = { "" }  // the browser never follows the start URL
        receiver.script = [{ _ in [:] }]
        var events: [FlowDriver.Event] = []
        #expect(throws: KCAuthError.self) { try login(events: &events) }
        #expect(transport.requests(to: Self.parEndpoint).isEmpty)
    }

    @Test func aRefusedPushEndsTheLoginWithTheProvidersError() throws {
        transport.on(.post, Self.parEndpoint, status: 400, json: #"{"error":"invalid_request","error_description":"no PAR today"}"#)
        var events: [FlowDriver.Event] = []
        let error = try #require(throws: KCAuthError.self) { try login(events: &events) }
        #expect(error.code == .provider && error.oauthError == .invalidRequest)
        #expect(error.message.contains("pushing the authorization request failed") && error.message.contains("invalid_request"))
        #expect(transport.requests(to: Fixtures.tokenEndpoint).isEmpty)
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
