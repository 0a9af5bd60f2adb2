import Testing
@testable import KCAuth
@testable import KCAuthCore
import KCAuthTestSupport

/// `kcauth status` over fakes, and the expiry rule it shares with `whoami`.
@Suite struct StatusTests {
    let store = InMemorySecretStore()

    static let config = try! ConfigDocument(parsing: """
    [default]
    issuer = https://sso.example.test/realms/demo
    client_id = kcauth

    [work]
    issuer = https://sso.example.test/realms/demo
    client_id = kcauth

    [old]
    issuer = https://old.example.test/realms/x
    client_id = cli

    [bare]
    port = 8400
    """, path: "/cfg")

    func status(at time: Double) -> Status {
        let store = self.store
        return Status(config: Self.config, store: { _ in store }, clock: FixedClock(time: time))
    }

    @Test func eachProfileGetsItsStateAndFix() throws {
        try SessionFixtures.store(SessionFixtures.state(expiresIn: 600), as: "default", in: store)
        try SessionFixtures.store(SessionFixtures.state(expiresIn: 60), as: "work", in: store)

        let report = status(at: Fixtures.now + 120).run(selected: "work")

        #expect(report.entries.map(\.profile) == ["default", "work", "old", "bare"])
        #expect(report.entries.map(\.state.code) == ["valid", "refreshable", "login_required", "login_required"])
        #expect(report.selected.profile == "work" && report.selected.state.isUsable)
        let d = report.entries[0]
        #expect(d.user == "alice" && d.storage == "memory" && d.fix == nil)
        #expect(d.accessTokenExpiresAt == Instant(clock: Fixtures.now + 600))
        #expect(report.entries[2].fix == .signIn(needsSettings: false) && report.entries[2].issuer == "https://old.example.test/realms/x")
        #expect(report.entries[3].fix == .signIn(needsSettings: true))
    }

    @Test func theSelectedProfileIsListedEvenWithoutASection() {
        let report = status(at: Fixtures.now).run(selected: "elsewhere")
        #expect(report.entries.first?.profile == "elsewhere" && report.selected.profile == "elsewhere")
        #expect(report.selected.state == .loginRequired(reason: "not logged in"))
    }

    @Test func aBrokenKeyringIsAskedOnceAndReported() {
        let locked = KCAuthError(.storageLocked, "the keyring is locked", hint: "unlock it")
        let counting = FailingStore(error: locked)
        let report = Status(config: Self.config, store: { _ in counting }, clock: FixedClock(time: Fixtures.now)).run(selected: "default")
        #expect(report.entries.allSatisfy { $0.state.code == "storage_unavailable" && $0.fix == .storage(locked) })
        #expect(counting.reads == 1)
    }

    @Test func anUnreadableStateNeedsALogin() throws {
        try store.write("garbage", for: SecretKey(profile: "default", issuer: "x", clientID: "y"))
        let entry = status(at: Fixtures.now).run(selected: "default").selected
        #expect(entry.state.code == "login_required" && entry.fix == .signIn(needsSettings: false))
    }

    @Test(arguments: [
        // (access expires in, refresh token, refresh expires in, seconds later, expected)
        (300.0, true, 1800.0, 10.0, "valid"),
        (300, true, 1800, 300, "refreshable"),
        (300, true, 0, 400, "refreshable"),  // 0: Keycloak's "no limit known" (offline token)
        (300, true, 1800, 1800, "login_required"),
        (300, false, 1800, 301, "login_required"),
    ] as [(Double, Bool, Double, Double, String)])
    func health(expiresIn: Double, hasRefresh: Bool, refreshExpiresIn: Double, later: Double, expected: String) {
        let state = SessionFixtures.state(expiresIn: expiresIn, refreshToken: hasRefresh ? "rt" : nil, refreshExpiresIn: refreshExpiresIn)
        #expect(SessionHealth.of(state, now: Instant(clock: Fixtures.now + later)).code == expected)
    }

    @Test func aTokenWithoutExpiryIsValid() {
        #expect(SessionHealth.of(SessionFixtures.state(expiresIn: nil), now: Instant(clock: Fixtures.now + 1e9)) == .valid)
    }

    @Test(arguments: [(299.0, "in 4m 59s"), (-5, "5s ago"), (7260, "in 2h 1m"), (-90000, "1d 1h ago"), (0, "in 0s")] as [(Double, String)])
    func relativeTime(seconds: Double, text: String) {
        #expect(RelativeTime.describe(seconds) == text)
    }
}
