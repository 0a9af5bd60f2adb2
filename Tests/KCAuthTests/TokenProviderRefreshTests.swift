import Foundation
import Testing
@testable import KCAuth
@testable import KCAuthCore
import KCAuthTestSupport

/// `token` / `refresh` decisions: reuse, refresh once, share another process's refresh, end the
/// session on invalid_grant, keep everything on transport errors.
@Suite struct TokenProviderRefreshTests {
    let store = InMemorySecretStore()
    let transport = FakeTransport()
    let cache = MemoryTokenCache()
    let lock = RecordingLock()
    var clock = FixedClock(time: 10_000)

    func storeState(accessToken: String = "at-old", expiresIn: Double = 300, refreshToken: String? = "rt-old",
                    idToken: String? = nil, obtainedAt: Double = 10_000) throws {
        let t = TokenResponse(accessToken: accessToken, tokenType: "Bearer", expiresIn: Seconds(expiresIn), refreshToken: refreshToken, idToken: idToken)
        let m = ProviderMetadata(issuer: Fixtures.issuer, authorizationEndpoint: Fixtures.authorizationEndpoint,
                                 tokenEndpoint: Fixtures.tokenEndpoint, jwksURI: Fixtures.jwksURI)
        let s = AuthState(issuer: Fixtures.issuer, clientID: "kcauth", tokens: t, requestedScope: "openid profile",
                          endpoints: ProviderEndpoints(m), now: Instant(clock: obtainedAt), sessionID: "s-1")
        try store.write(try s.encoded(), for: SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth"))
    }

    func stored() throws -> AuthState { try AuthState.decode(try #require(store.items["default"]?.1), profile: "default") }

    var useCase: TokenProvider { provider("default") }

    func provider(_ profile: String) -> TokenProvider {
        let transport = self.transport, clock = self.clock
        return TokenProvider(profile: profile, store: store, clock: clock, lock: lock, cache: cache,
                             binding: CacheBinding(storage: .keyring, issuer: Fixtures.issuer, clientID: "kcauth"),
                             refresher: { TokenRefresher(http: OAuthHTTP(transport), clock: clock) })
    }

    @Test func aValidTokenIsServedWithoutNetworkOrLock() throws {
        try storeState()
        let t = try useCase.run(.init())
        #expect(t.accessToken == "at-old")
        #expect(transport.requests.isEmpty && lock.acquisitions == 0)
        #expect(cache.tokens["default"]?.accessToken == "at-old", "remembered for the next call")
    }

    @Test func aCachedTokenNeedsNoKeyring() throws {
        try storeState()
        _ = try useCase.run(.init())
        store.unavailable = KCAuthError(.storageLocked, "locked")
        #expect(try useCase.run(.init()).accessToken == "at-old")
    }

    @Test func aTokenAboutToExpireIsRefreshedOnceAndStored() throws {
        try storeState(expiresIn: 20)
        transport.on(.post, Fixtures.tokenEndpoint, json: #"{"access_token":"at-new","token_type":"Bearer","expires_in":300,"refresh_token":"rt-new","refresh_expires_in":1800}"#)

        let t = try useCase.run(.init(minValid: 30))

        #expect(t.accessToken == "at-new")
        let fields = formFields(of: try #require(transport.requests.first))
        #expect(fields == ["grant_type": "refresh_token", "refresh_token": "rt-old", "client_id": "kcauth"])
        let s = try stored()
        #expect(s.refreshToken == "rt-new" && s.refreshExpiresAt?.rfc3339 == RFC3339.format(10_000 + 1800))
        #expect(lock.acquisitions == 1 && cache.tokens["default"]?.accessToken == "at-new")
    }

    @Test func aResponseWithoutARefreshTokenKeepsTheOldOne() throws {
        try storeState(expiresIn: 0)
        transport.on(.post, Fixtures.tokenEndpoint, json: #"{"access_token":"at-new","token_type":"Bearer","expires_in":300}"#)
        _ = try useCase.run(.init())
        #expect(try stored().refreshToken == "rt-old", "RFC 6749 §6")
    }

    @Test func aRefreshByAnotherProcessWhileWaitingIsUsedNotRepeated() throws {
        try storeState(expiresIn: 0)
        lock.whileWaiting = { [self] in try storeState(accessToken: "at-theirs", refreshToken: "rt-theirs") }
        let t = try useCase.run(.init())
        #expect(t.accessToken == "at-theirs")
        #expect(transport.requests.isEmpty, "never refresh with a refresh token another process already used")
    }

    @Test func invalidGrantEndsTheSessionButKeepsNothingElse() throws {
        try storeState(expiresIn: 0)
        cache.tokens["default"] = nil
        transport.on(.post, Fixtures.tokenEndpoint, status: 400, json: #"{"error":"invalid_grant","error_description":"Stale token"}"#)
        #expect { try useCase.run(.init()) } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .loginRequired && e?.message.contains("invalid_grant (Stale token)") == true
                && e?.remedy == .signIn(profile: "default") && e?.oauthError == .invalidGrant
        }
        #expect(store.items["default"] == nil)
    }

    @Test(arguments: [500, 503])
    func serverErrorsLeaveTheStoredStateUntouched(status: Int) throws {
        try storeState(expiresIn: 0)
        let before = store.items["default"]?.1
        transport.on(.post, Fixtures.tokenEndpoint, status: status, json: "<html>oops</html>")
        #expect { try useCase.run(.init()) } throws: { ($0 as? KCAuthError)?.code == .network }
        #expect(store.items["default"]?.1 == before)
    }

    @Test func refreshForcesAndCanNarrowTheScope() throws {
        try storeState()
        transport.on(.post, Fixtures.tokenEndpoint, json: #"{"access_token":"at-narrow","token_type":"Bearer","expires_in":300,"scope":"openid"}"#)
        let t = try useCase.run(.init(minValid: 0, force: true, scope: "openid"))
        #expect(t.accessToken == "at-narrow" && t.scope == "openid")
        #expect(formFields(of: try #require(transport.requests.first))["scope"] == "openid")
        let kept = try stored()
        #expect(kept.accessToken == "at-old" && kept.scope == "openid profile", "the narrowed answer does not become the session")
        #expect(cache.tokens["default"]?.accessToken != "at-narrow", "nor its cached copy")
    }

    @Test func aRefreshedIDTokenIsValidatedWithoutNonce() throws {
        try storeState(expiresIn: 0, idToken: Fixtures.idToken)
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        let t = try useCase.run(.init(idToken: true))
        #expect(t.idToken == Fixtures.idToken && t.idTokenExpiresAt == Instant(epochSeconds: 4_102_444_800))
    }

    @Test func aTamperedRefreshedIDTokenKeepsOnlyTheRotatedRefreshToken() throws {
        try storeState(expiresIn: 0)
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse(idToken: Fixtures.idTokenTampered))
        #expect { try useCase.run(.init()) } throws: { ($0 as? KCAuthError)?.code == .invalidIDToken }
        let kept = try stored()
        #expect(kept.accessToken == "at-old" && kept.idToken == nil, "nothing from the rejected answer is used")
        #expect(kept.refreshToken == "rt-1", "but the old refresh token is spent: the rotated one is kept")
    }

    @Test func nothingStoredNamesTheLoginCommand() {
        #expect { try provider("work").run(.init()) } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .loginRequired && e?.remedy == .signIn(profile: "work") && e?.message.contains("memory storage") == true
        }
    }

    @Test func anExpiredTokenWithoutRefreshTokenNeedsALogin() throws {
        try storeState(expiresIn: 0, refreshToken: nil)
        #expect { try useCase.run(.init()) } throws: { ($0 as? KCAuthError)?.code == .loginRequired }
        #expect(store.items["default"] != nil, "only invalid_grant removes the session")
    }
}
