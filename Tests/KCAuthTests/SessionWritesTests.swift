import Testing
@testable import KCAuth
import KCAuthTestSupport

/// Every write of a session goes through `SessionWriter`: a refresh's new tokens (`TokenProvider`)
/// and the userinfo answer `whoami` keeps.
@Suite struct SessionWritesTests {
    @Test func aRefreshIsWrittenAsTheSameSessionWithNewTokens() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        try SessionFixtures.store(SessionFixtures.state(), in: fake.keyring)
        fake.clock = FixedClock(time: Fixtures.now + 400)  // the access token expired, the refresh token did not
        fake.serveProvider(tokenResponses: [Fixtures.tokenResponse(accessToken: "at-2")])
        let context = KCAuthContext(adapters: fake.adapters)
        let token = try context.tokenProvider(try context.resolve()).run(TokenProvider.Request())
        #expect(token.accessToken == "at-2")
        let stored = try AuthState.decode(try #require(try fake.keyring.read(profile: "default")), profile: "default")
        #expect(stored.accessToken == "at-2" && stored.sessionID == "s-1", "the same session, new tokens")
        #expect(fake.lock.acquisitions == 1 && fake.cache.tokens["default"]?.accessToken == "at-2")
    }

    @Test func theUserinfoAnswerIsKeptWithTheSession() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        try SessionFixtures.store(SessionFixtures.state(), in: fake.keyring)
        fake.transport.on(.get, SessionFixtures.userinfo, json: #"{"sub":"u-1","email":"alice@example.test"}"#)
        let context = KCAuthContext(adapters: fake.adapters)
        let identity = try context.whoAmI(try context.resolve()).run(profile: "default", userinfo: true)
        #expect(identity.userinfo?["email"] == .string("alice@example.test"))
        let stored = try AuthState.decode(try #require(try fake.keyring.read(profile: "default")), profile: "default")
        #expect(stored.userinfo?["email"] == .string("alice@example.test") && stored.accessToken == "at-1")
        #expect(fake.lock.acquisitions == 1, "kept under the refresh lock")
    }

    @Test func theWriterKeepsEachKindOfWriteApart() throws {
        let store = InMemorySecretStore()
        let cache = MemoryTokenCache()
        let writer = SessionWriter(store: store, storage: .keyring, cache: cache)
        let state = SessionFixtures.state()
        cache.write(CachedToken(state, storage: .keyring), profile: "default")
        try writer.amended(state, profile: "default")
        #expect(cache.tokens["default"] != nil && store.items["default"] != nil, "a detail changes no token")
        try writer.refreshed(state, profile: "default")
        #expect(cache.tokens["default"] == nil && store.writes.count == 2, "new tokens: this environment's copy goes")
        writer.discard(profile: "default", session: "s-1", binding: CacheBinding(storage: .keyring, issuer: state.issuer, clientID: state.clientID))
        #expect(store.items["default"] == nil)
    }
}
