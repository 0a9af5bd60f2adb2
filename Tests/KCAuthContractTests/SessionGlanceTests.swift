import KCAuthContract
import Testing

/// `kcauth prompt`'s decision (both programs make it here): every state from the record, the
/// session mark and the lock note, and the reads it makes.
@Suite struct SessionGlanceTests {
    static let now = 1_800_000_000.0
    let binding = CachePolicy.Binding(storage: "keyring", issuer: "https://sso.example.com/realms/r", clientID: "cli")
    func record(expiresAt: Double? = now + 2_520, renewal: SessionRenewal? = .refreshToken, renewalEnd: Double? = nil,
                session: String? = "s-1", issuer: String = "https://sso.example.com/realms/r") -> CacheRecord {
        CacheRecord(accessToken: "eyJ.a.b", tokenType: "Bearer", expiresAt: expiresAt, scope: "openid", issuer: issuer,
                    clientID: "cli", storage: "keyring", sessionID: session, user: "alice", renewal: renewal, renewalExpiresAt: renewalEnd)
    }
    func glance(_ record: CacheRecord?, mark: SessionMark.State? = .current("s-1"), locked: Bool = false,
                binding: CachePolicy.Binding? = nil) -> SessionGlance {
        SessionGlance.of(record: record, binding: binding ?? self.binding, mark: mark, storeLocked: { locked }, now: Self.now)
    }

    @Test func aValidTokenIsSignedInWithItsTimeLeft() {
        #expect(glance(record()) == SessionGlance(state: .valid, expiresIn: 2_520, user: "alice"))
        #expect(glance(record(expiresAt: nil)) == SessionGlance(state: .valid, expiresIn: nil, user: "alice"))
        // A valid token is valid even when the store is locked: `kcauth token` serves it from the cache.
        #expect(glance(record(), locked: true).state == .valid)
        let last = SessionGlance.of(record: record(expiresAt: Self.now + 1), binding: binding, mark: .current("s-1"), storeLocked: { false },
                                    now: Self.now + 0.5)
        #expect(last.state == .valid && last.expiresIn == 0)
    }

    @Test func anExpiredTokenIsRefreshableOnlyWhenTheRecordSaysSo() {
        let expired = Self.now
        #expect(glance(record(expiresAt: expired)) == SessionGlance(state: .refreshable, user: "alice"))
        #expect(glance(record(expiresAt: expired, renewal: .clientCredentials)).state == .refreshable)
        #expect(glance(record(expiresAt: expired, renewalEnd: Self.now + 60)).state == .refreshable)
        #expect(glance(record(expiresAt: expired, renewalEnd: Self.now)).state == .loginRequired)
        #expect(glance(record(expiresAt: expired, renewal: SessionRenewal.none)).state == .loginRequired)
        // A record of an older writer does not say: the store would have to.
        #expect(glance(record(expiresAt: expired, renewal: nil)) == SessionGlance(state: .unknown, user: "alice"))
        #expect(glance(record(expiresAt: expired), locked: true).state == .locked)
        #expect(glance(record(expiresAt: expired, renewal: nil), locked: true).state == .locked)
        #expect(glance(record(expiresAt: expired, renewal: SessionRenewal.none), locked: true).state == .loginRequired)
    }

    @Test func theSessionMarkDecidesWhoseRecordItIs() {
        #expect(glance(record(), mark: .ended("s-1")) == SessionGlance(state: .loginRequired))
        #expect(glance(nil, mark: .ended("s-0")).state == .loginRequired)
        #expect(glance(record(), mark: .current("s-2")) == SessionGlance(state: .unknown))
        #expect(glance(record(), mark: nil).state == .unknown)
        #expect(glance(record(session: nil)).state == .unknown)
        #expect(glance(record(issuer: "https://other.example.com/realms/r")).state == .unknown)
        #expect(glance(nil).state == .unknown)
        #expect(glance(nil, locked: true).state == .locked)
    }

    @Test func aProfileThatCannotHaveASessionNeedsASignIn() {
        #expect(SessionGlance.of(record: record(), binding: nil, mark: .current("s-1"), storeLocked: { true }, now: Self.now).state == .loginRequired)
        let memory = CachePolicy.Binding(storage: "memory", issuer: binding.issuer, clientID: "cli")
        #expect(glance(nil, mark: nil, binding: memory).state == .loginRequired)
    }

    @Test func itReadsThePrivateDirectoryTheRecordAndTheNoteOnlyWhenItDecides() {
        var asked: [String] = []
        var files: [String: ContractFile.Outcome] = ["/r/kcauth": .bytes([]), "/r/kcauth/work.token": .bytes(record().encoded())]
        func run(_ runtime: String? = "/r/kcauth") -> SessionGlance {
            asked = []
            return SessionGlance.read(profile: "work", binding: binding, runtimeDirectory: runtime,
                                      read: { path, rule in asked.append(path); #expect(rule == .secret); return files[path] ?? .absent },
                                      mark: { profile, _ in #expect(profile == "work"); return .current("s-1") }, now: Self.now)
        }
        #expect(run().state == .valid)
        #expect(asked == ["/r/kcauth", "/r/kcauth/work.token"])
        files["/r/kcauth/work.token"] = .bytes(record(expiresAt: Self.now - 1).encoded())
        files["/r/kcauth/keyring.locked"] = .bytes([])
        #expect(run().state == .locked)
        #expect(asked == ["/r/kcauth", "/r/kcauth/work.token", "/r/kcauth/keyring.locked"])
        // A directory that is not private is not trusted: nothing in it is read.
        files["/r/kcauth"] = .refused(path: "/r/kcauth", .writableByOthers(mode: 0o777))
        #expect(run().state == .unknown)
        #expect(asked == ["/r/kcauth"])
        #expect(run(nil).state == .unknown)
        #expect(asked.isEmpty)
    }
}
