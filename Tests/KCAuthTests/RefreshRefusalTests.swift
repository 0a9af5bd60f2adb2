import Foundation
import Testing
@testable import KCAuth
@testable import KCAuthCore
import KCAuthTestSupport

/// `RefreshRefusal`: a dead refresh token, whatever the provider calls it, ends the session for the
/// user (exit 4, sign in); every other refusal keeps it. The provider's answers are played by
/// the fake transport: LemonLDAP::NG's bare `invalid_request` and the 401 cannot be produced by
/// the test provider's defaults.
@Suite struct RefreshRefusalTests {
    let store = InMemorySecretStore()
    let transport = FakeTransport()
    let clock = FixedClock(time: 10_000)

    func storeExpiredSession() throws {
        let t = TokenResponse(accessToken: "at-old", tokenType: "Bearer", expiresIn: Seconds(0), refreshToken: "rt-old-0123456789")
        let m = ProviderMetadata(issuer: Fixtures.issuer, authorizationEndpoint: Fixtures.authorizationEndpoint,
                                 tokenEndpoint: Fixtures.tokenEndpoint, jwksURI: Fixtures.jwksURI)
        let s = AuthState(issuer: Fixtures.issuer, clientID: "kcauth", tokens: t, requestedScope: "openid profile",
                          endpoints: ProviderEndpoints(m), now: Instant(clock: 10_000), sessionID: "s-1")
        try store.write(try s.encoded(), for: SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth"))
    }

    var useCase: TokenProvider {
        let transport = self.transport, clock = self.clock
        return TokenProvider(profile: "default", store: store, clock: clock, lock: RecordingLock(), cache: MemoryTokenCache(),
                             binding: CacheBinding(storage: .keyring, issuer: Fixtures.issuer, clientID: "kcauth"),
                             refresher: { TokenRefresher(http: OAuthHTTP(transport), clock: clock) })
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var provider: String
        var status: Int
        var body: String
        var scope: String? = nil
        var over: Bool
        /// Whether the stored session is deleted (only when the answer says it is over).
        var deleted: Bool
        var testDescription: String { provider }
    }

    static let cases: [Case] = [
        Case(provider: "Keycloak invalid_grant", status: 400, body: #"{"error":"invalid_grant","error_description":"Session not active"}"#, over: true, deleted: true),
        Case(provider: "RFC 6749 invalid_grant, no description", status: 400, body: #"{"error":"invalid_grant"}"#, over: true, deleted: true),
        Case(provider: "LemonLDAP::NG invalid_request, no description", status: 400, body: #"{"error":"invalid_request"}"#, over: true, deleted: false),
        Case(provider: "invalid_request naming the refresh token", status: 400, body: #"{"error":"invalid_request","error_description":"Invalid refresh token"}"#, over: true, deleted: true),
        Case(provider: "invalid_request naming a parameter", status: 400, body: #"{"error":"invalid_request","error_description":"Missing parameter: client_id"}"#, over: true, deleted: false),
        Case(provider: "unauthorized_client naming the session", status: 400, body: #"{"error":"unauthorized_client","error_description":"Session expired"}"#, over: true, deleted: true),
        Case(provider: "HTTP 401, no OAuth error", status: 401, body: "<html>Unauthorized</html>", over: true, deleted: false),
        Case(provider: "invalid_token", status: 401, body: #"{"error":"invalid_token"}"#, over: true, deleted: false),
        Case(provider: "Keycloak invalid_scope, consent withdrawn", status: 400, body: #"{"error":"invalid_scope","error_description":"Client no longer has requested consent from user"}"#, over: true, deleted: true),
        Case(provider: "invalid_scope for a narrowed scope", status: 400, body: #"{"error":"invalid_scope"}"#, scope: "openid admin", over: false, deleted: false),
        Case(provider: "invalid_client", status: 401, body: #"{"error":"invalid_client","error_description":"Invalid client credentials"}"#, over: false, deleted: false),
        Case(provider: "unsupported_grant_type", status: 400, body: #"{"error":"unsupported_grant_type"}"#, over: false, deleted: false),
        Case(provider: "temporarily_unavailable", status: 400, body: #"{"error":"temporarily_unavailable"}"#, over: false, deleted: false),
        Case(provider: "an unknown code", status: 400, body: #"{"error":"quota_exceeded"}"#, over: false, deleted: false),
        Case(provider: "HTTP 400, no OAuth error", status: 400, body: "<html>Bad request</html>", over: false, deleted: false),
        Case(provider: "HTTP 503 with an OAuth error", status: 503, body: #"{"error":"invalid_grant"}"#, over: false, deleted: false),
    ]

    @Test(arguments: cases)
    func aRefusedRefresh(_ c: Case) throws {
        try storeExpiredSession()
        let before = store.items["default"]?.1
        transport.on(.post, Fixtures.tokenEndpoint, status: c.status, json: c.body)
        let error = try #require(throws: KCAuthError.self) { try useCase.run(.init(scope: c.scope)) }
        if c.over {
            #expect(error.code == .loginRequired, "exit 4")
            #expect(error.remedy == .signIn(profile: "default"))
            #expect(error.message.hasPrefix("the session of profile 'default' has ended at the provider ("))
        } else {
            #expect(error.code != .loginRequired)
        }
        #expect(!error.message.contains("rt-old") && error.cause?.contains("rt-old") != true)
        if c.deleted {
            #expect(store.items["default"] == nil)
        } else {
            #expect(store.items["default"]?.1 == before, "the stored session is kept byte for byte")
        }
    }

    @Test func a401WithoutAnOAuthErrorIsTheClientsWhenTheClientAuthenticates() {
        var bare = KCAuthError(.network, "refreshing the token at … answered HTTP 401")
        bare.httpStatus = 401
        #expect(RefreshRefusal.endsSession(bare, clientAuthenticates: false, narrowedScope: false))
        #expect(!RefreshRefusal.endsSession(bare, clientAuthenticates: true, narrowedScope: false))
    }
}
