import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// The check before the browser opens (`AuthorizationCheck`): a provider's "no" to the
/// authorization request ends the login at once with its words and the setting to check; every
/// other answer goes on to the browser; one request, no redirect followed.
@Suite struct AuthorizationCheckTests {
    let transport = FakeTransport()
    let opener = RecordingOpener()
    let receiver = ScriptedReceiver()

    init() {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        receiver.openedURL = { [opener, receiver] in receiver.follow(opener.opened.last ?? "") }
    }

    /// Keycloak's error page (error.ftl) for `message`.
    static func keycloakPage(_ message: String, status: Int = 400) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": "text/html;charset=utf-8"], body: Array("""
            <!DOCTYPE html><html><head><title>Sign in to demo</title><script>var x = "<p>no</p>";</script></head>
            <body><div id="kc-header">demo</div><h1 id="kc-page-title">We are sorry...</h1>
            <div id="kc-error-message">
                <p class="instruction">\(message)</p>
            </div></body></html>
            """.utf8))
    }

    func login(answer: HTTPResponse?, transport custom: (any HTTPTransport)? = nil, port: UInt16 = 0, clientID: String = "kcauth",
               events: inout [FlowDriver.Event]) throws -> FlowDriver.Output {
        if let answer { transport.onAnyQuery(.get, Fixtures.authorizationEndpoint, answer) }
        let driver = FlowDriver(http: OAuthHTTP(custom ?? transport), clock: FixedClock(time: Fixtures.now), random: FixedRandom(),
                                store: InMemorySecretStore(), opener: opener, receiver: receiver, sleeper: FakeSleeper())
        var input = FlowDriver.Input(profile: "default", issuer: Fixtures.issuer, clientID: clientID, scope: "openid",
                                     port: port, timeout: 300, openBrowser: true)
        input.par = .never
        var seen: [FlowDriver.Event] = []
        defer { events = seen }
        return try driver.run(input) { seen.append($0) }
    }

    @Test func anUnknownClientEndsTheLoginBeforeTheBrowserWithTheProvidersWords() throws {
        var events: [FlowDriver.Event] = []
        let error = try #require(throws: KCAuthError.self) { try login(answer: Self.keycloakPage("Client not found."), clientID: "kcauthx", events: &events) }
        #expect(error.code == .provider && error.httpStatus == 400)
        #expect(error.message == "the provider refused the sign-in request: Client not found. (HTTP 400)")
        #expect(error.remedy == .checkClientOrRedirectURI(RefusedAuthorization(
            suspect: .clientID, clientID: "kcauthx", redirectURI: "http://127.0.0.1/callback", anyPortAccepted: true, fixedPortMayHelp: false)))
        #expect(opener.opened.isEmpty, "no browser opened")
        #expect(receiver.pages.isEmpty, "no wait")
        #expect(!events.contains { if case .authorizationURL = $0 { true } else { false } })
        let checks = transport.requests(toAnyQueryOf: Fixtures.authorizationEndpoint)
        #expect(checks.count == 1 && checks[0].method == .get, "one request")
        let asked = queryParameters(of: checks[0].url)
        #expect(asked["client_id"] == "kcauthx" && asked["redirect_uri"] == receiver.redirectURI && asked["code_challenge_method"] == "S256")
    }

    @Test func aRefusedRedirectURINamesTheRedirectURIs() throws {
        var events: [FlowDriver.Event] = []
        let error = try #require(throws: KCAuthError.self) {
            try login(answer: Self.keycloakPage("Invalid parameter: redirect_uri"), events: &events)
        }
        #expect(error.message == "the provider refused the sign-in request: Invalid parameter: redirect_uri (HTTP 400)")
        guard case .checkClientOrRedirectURI(let refused)? = error.remedy else { Issue.record("\(String(describing: error.remedy))"); return }
        #expect(refused.suspect == .redirectURI && refused.redirectURI == "http://127.0.0.1/callback" && !refused.fixedPortMayHelp)
    }

    @Test func anOAuthErrorBodyIsTheProvidersWordsToo() throws {
        var events: [FlowDriver.Event] = []
        let answer = HTTPResponse(status: 401, headers: ["content-type": "application/json"],
                                  body: Array(#"{"error":"invalid_client","error_description":"Unknown client"}"#.utf8))
        let error = try #require(throws: KCAuthError.self) { try login(answer: answer, events: &events) }
        #expect(error.message == "the provider refused the sign-in request: invalid_client (Unknown client) (HTTP 401)")
        #expect(error.oauthError == .invalidClient)
        guard case .checkClientOrRedirectURI(let refused)? = error.remedy else { Issue.record("no remedy"); return }
        #expect(refused.suspect == .clientID)
    }

    @Test func aRefusalWithoutWordsPointsAtBoth() throws {
        var events: [FlowDriver.Event] = []
        let error = try #require(throws: KCAuthError.self) { try login(answer: HTTPResponse(status: 403), events: &events) }
        #expect(error.message == "the provider refused the sign-in request (HTTP 403)")
        guard case .checkClientOrRedirectURI(let refused)? = error.remedy else { Issue.record("no remedy"); return }
        #expect(refused.suspect == .either)
    }

    @Test func anEndpointThatIsNotThereIsNotBlamedOnTheClient() throws {
        var events: [FlowDriver.Event] = []
        let error = try #require(throws: KCAuthError.self) {
            try login(answer: HTTPResponse(status: 404, body: Array("<html><h1>Not Found</h1></html>".utf8)), events: &events)
        }
        #expect(error.message == "the provider's authorization endpoint answered HTTP 404: Not Found")
        #expect(error.remedy == nil && error.hint?.contains("authorization_endpoint") == true)
        #expect(opener.opened.isEmpty)
    }

    @Test func withAFixedPortTheExactRedirectURIIsNamedForAProviderThatMayCompareExactly() {
        let keycloak = RefusedAuthorization(.redirectURI, clientID: "c", redirectURI: "http://127.0.0.1:8400/callback", fixedPort: true,
                                            issuer: "https://sso.example.test/realms/demo")
        #expect(keycloak.redirectURI == "http://127.0.0.1/callback" && keycloak.anyPortAccepted && !keycloak.fixedPortMayHelp)
        let other = RefusedAuthorization(.redirectURI, clientID: "c", redirectURI: "http://127.0.0.1:8400/callback", fixedPort: true,
                                         issuer: "https://login.example.test/oauth2/default")
        #expect(other.redirectURI == "http://127.0.0.1:8400/callback" && !other.anyPortAccepted && !other.fixedPortMayHelp)
        let random = RefusedAuthorization(.redirectURI, clientID: "c", redirectURI: "http://127.0.0.1:41237/callback", fixedPort: false,
                                          issuer: "https://login.example.test/oauth2/default")
        #expect(random.redirectURI == "http://127.0.0.1/callback" && random.fixedPortMayHelp)
    }

    /// Answers a browser may get past, or that are not the provider's "no", go on to the browser.
    @Test(arguments: [200, 302, 303, 408, 429, 500, 502, 503])
    func anyOtherAnswerGoesOnToTheBrowser(status: Int) throws {
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        receiver.script = [LoginTests.answer(["code": "c-1", "iss": Fixtures.issuer])]
        let answer = HTTPResponse(status: status, headers: status / 100 == 3 ? ["location": receiver.redirectURI + "?error=login_required"] : [:],
                                  body: Array("<html><p>busy</p></html>".utf8))
        var events: [FlowDriver.Event] = []
        let output = try login(answer: answer, events: &events)
        #expect(output.claims.preferredUsername == "alice")
        #expect(opener.opened.count == 1)
        #expect(transport.requests(toAnyQueryOf: Fixtures.authorizationEndpoint).count == 1, "at most one request, and no redirect followed")
    }

    @Test func aTransportFailureGoesOnToTheBrowser() throws {
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        receiver.script = [LoginTests.answer(["code": "c-1", "iss": Fixtures.issuer])]
        var events: [FlowDriver.Event] = []
        let output = try login(answer: nil, transport: FailingAuthorizationEndpoint(transport), events: &events)
        #expect(output.claims.preferredUsername == "alice" && opener.opened.count == 1)
    }

    @Test func theFixedPortAdviceIsGivenOnlyWhereItApplies() throws {
        var events: [FlowDriver.Event] = []
        receiver.script = []  // the browser never comes back
        let keycloak = try #require(throws: KCAuthError.self) { try login(answer: FakeTransport.loginPage, events: &events) }
        #expect(keycloak.code == .timedOut && keycloak.remedy == nil, "Keycloak takes any loopback port: no --port advice")
        #expect(events.contains { if case .waiting(_, _, false) = $0 { true } else { false } })

        let fixed = try #require(throws: KCAuthError.self) { try login(answer: nil, port: 8400, events: &events) }
        #expect(fixed.remedy == nil)

        // A provider not known to take any port (no `/realms/` issuer): the advice stands.
        let other = "https://login.example.test/oauth2/default"
        let elsewhere = AuthorizationCheckTests()
        elsewhere.transport.on(.get, other + "/.well-known/openid-configuration", json: Fixtures.discovery.replacing(Fixtures.issuer, with: other))
        elsewhere.transport.onAnyQuery(.get, other + "/protocol/openid-connect/auth", FakeTransport.loginPage)
        let driver = FlowDriver(http: OAuthHTTP(elsewhere.transport), clock: FixedClock(time: Fixtures.now), random: FixedRandom(),
                                store: InMemorySecretStore(), opener: elsewhere.opener, receiver: elsewhere.receiver, sleeper: FakeSleeper())
        var input = FlowDriver.Input(profile: "default", issuer: other, clientID: "kcauth", scope: "openid", port: 0, timeout: 300,
                                     openBrowser: true)
        input.par = .never
        var seen: [FlowDriver.Event] = []
        let timedOut = try #require(throws: KCAuthError.self) { try driver.run(input) { seen.append($0) } }
        #expect(timedOut.remedy == .useFixedPort)
        #expect(seen.contains { if case .waiting(_, _, true) = $0 { true } else { false } })
    }
}

/// The provider's transport, except that its authorization endpoint cannot be reached.
private final class FailingAuthorizationEndpoint: HTTPTransport, @unchecked Sendable {
    let inner: FakeTransport
    init(_ inner: FakeTransport) { self.inner = inner }
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.url.reveal().hasPrefix(Fixtures.authorizationEndpoint + "?") {
            var error = KCAuthError(.network, "timed out after 30 s waiting for sso.example.test:443")
            error.transient = true
            throw error
        }
        return try inner.send(request)
    }
}
