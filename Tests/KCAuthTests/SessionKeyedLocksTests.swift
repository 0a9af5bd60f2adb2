import Synchronization
import Testing
@testable import KCAuth
@testable import KCAuthCore
import KCAuthTestSupport

/// The refresh and sign-in locks are taken for the session (store, profile, issuer, client id),
/// not the profile name alone: the refresh lock for the session the store holds, whatever the
/// settings say; the sign-in lock for the session the sign-in will store, once first run has
/// named it.
@Suite struct SessionKeyedLocksTests {
    static let other = "https://other.example.com/realms/b"

    /// A sign-in lock that is always free and notes what was locked, in which store.
    final class RecordingSignInLock: Sendable {
        fileprivate let taken = Mutex<[(StorageKind, SecretKey)]>([])
        var sessions: [(StorageKind, SecretKey)] { taken.withLock { $0 } }
        func lock(_ kind: StorageKind) -> any SignInLock { Store(kind: kind, parent: self) }
        struct Store: SignInLock {
            let kind: StorageKind
            let parent: RecordingSignInLock
            func take(_ session: SecretKey) throws -> SignInAttempt {
                parent.taken.withLock { $0.append((kind, session)) }
                return .held(UnsharedSignIn.Holding())
            }
            func waitForEnd(_ session: SecretKey, timeout: Double) throws -> SignInRecord? { nil }
            func askToStop(_ record: SignInRecord) -> Bool { false }
        }
    }

    static func state(issuer: String = Fixtures.issuer, expiresIn: Double, refreshToken: String) -> AuthState {
        var state = SessionFixtures.state(expiresIn: expiresIn, refreshToken: refreshToken)
        state.issuer = issuer
        return state
    }

    @Test func aFirstRunTakesTheSignInLockOfTheSessionItsAnswersName() throws {
        let fake = FakeAdapters()
        fake.serveProvider()
        fake.browserSignsIn()
        fake.terminal = ScriptedTerminal(lines: [Fixtures.issuer + "/", "kcauth"])
        let signIns = RecordingSignInLock()
        var adapters = fake.adapters
        adapters.signInLock = { signIns.lock($0) }
        var flags = SettingsFlags()
        flags.flow = .browser
        let result = try KCAuthContext(adapters: adapters).login(flags).run(Login.Options(canAsk: true)) { _ in }
        guard case .signedIn = result else { Issue.record("\(result)"); return }
        // Taken once the questions were answered: the lock is the answered session's.
        #expect(signIns.sessions.map(\.0) == [.keyring])
        #expect(signIns.sessions.map(\.1) == [SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth")])
    }

    @Test func theRefreshLockIsTheStoredSessionsWhateverTheSettingsSay() throws {
        let store = InMemorySecretStore(), transport = FakeTransport(), lock = RecordingLock(), clock = FixedClock(time: Fixtures.now)
        try SessionFixtures.store(Self.state(expiresIn: 0, refreshToken: "rt-old"), in: store)
        transport.on(.post, Fixtures.tokenEndpoint, json: #"{"access_token":"at-new","token_type":"Bearer","expires_in":300}"#)
        // This caller's settings name another provider (a variable a cron job does not have):
        // the stored session is still the one refreshed, under the lock every reader of it takes.
        let provider = TokenProvider(profile: "default", store: store, clock: clock, lock: lock, cache: nil,
                                     binding: CacheBinding(storage: .keyring, issuer: Self.other, clientID: "kcauth"),
                                     refresher: { TokenRefresher(http: OAuthHTTP(transport), clock: clock) })
        #expect(try provider.run(.init()).accessToken == "at-new")
        #expect(lock.sessions == [SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth")])
    }

    @Test func aSessionReplacedWhileWaitingIsRefreshedUnderItsOwnLock() throws {
        let store = InMemorySecretStore(), transport = FakeTransport(), lock = RecordingLock(), clock = FixedClock(time: Fixtures.now)
        try SessionFixtures.store(Self.state(expiresIn: 0, refreshToken: "rt-old"), in: store)
        transport.on(.post, Fixtures.tokenEndpoint, json: #"{"access_token":"at-new","token_type":"Bearer","expires_in":300}"#)
        let replaced = Mutex(false)
        // A sign-in with another provider stores its session while this caller waits for the lock.
        lock.whileWaiting = {
            guard !replaced.withLock({ let was = $0; $0 = true; return was }) else { return }
            try SessionFixtures.store(Self.state(issuer: Self.other, expiresIn: 0, refreshToken: "rt-other"), in: store)
        }
        let provider = TokenProvider(profile: "default", store: store, clock: clock, lock: lock, cache: nil,
                                     binding: CacheBinding(storage: .keyring, issuer: Fixtures.issuer, clientID: "kcauth"),
                                     refresher: { TokenRefresher(http: OAuthHTTP(transport), clock: clock) })
        #expect(try provider.run(.init()).accessToken == "at-new")
        #expect(lock.sessions.map(\.issuer) == [Fixtures.issuer, Self.other], "the new session's own lock, then")
        let refreshes = transport.requests(to: Fixtures.tokenEndpoint).map(formFields(of:))
        #expect(refreshes.map { $0["refresh_token"] } == ["rt-other"], "the session stored now is refreshed, once")
    }

    @Test func aLogoutEndsTheSessionStoredNowUnderItsLock() throws {
        let store = InMemorySecretStore(), transport = SessionTransport(), lock = RecordingLock()
        try SessionFixtures.store(Self.state(expiresIn: 300, refreshToken: "rt-1"), in: store)
        transport.on(.post, SessionFixtures.endSession, status: 204)
        transport.on(.post, SessionFixtures.revocation, status: 200)
        let replaced = Mutex(false)
        lock.whileWaiting = {
            guard !replaced.withLock({ let was = $0; $0 = true; return was }) else { return }
            try SessionFixtures.store(Self.state(issuer: Self.other, expiresIn: 300, refreshToken: "rt-other"), in: store)
        }
        let outcome = try SessionEnd(store: store, lock: lock, http: { OAuthHTTP(transport) }, random: FixedRandom(),
                                     opener: RecordingOpener(), receiver: ScriptedReceiver())
            .run(profile: "default", options: .init())
        #expect(lock.sessions.map(\.issuer) == [Fixtures.issuer, Self.other])
        #expect(outcome.deleted && store.items["default"] == nil && outcome.issuer == Self.other)
        #expect(transport.fields(of: SessionFixtures.revocation).map { $0["token"] } == ["rt-other"], "the session stored now is revoked")
    }
}
