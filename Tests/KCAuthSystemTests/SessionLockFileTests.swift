import Glibc
import KCAuthContract
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// The refresh and sign-in locks are the session's: one file per store, profile, issuer and
/// client id, so the same profile name with another provider (another configuration) neither
/// waits nor is waited for, while the same session still takes one lock. Real files, real flock.
@Suite("Session-keyed lock files")
struct SessionLockFileTests {
    let first = SecretKey(profile: "default", issuer: "http://127.0.0.1:8180/realms/one", clientID: "kcauth")
    let second = SecretKey(profile: "default", issuer: "http://127.0.0.1:8181/realms/two", clientID: "kcauth")

    func timedOut(_ body: () throws -> Void) -> Bool {
        do { try body() } catch let error as KCAuthError { return error.code == .timedOut } catch { return false }
        return false
    }

    @Test func namesAreTheSessionsWithItsProfileReadable() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let refresh = FileProfileLock(directory: tmp.path, namespace: "keyring")
        let signIn = FileSignInLock(directory: tmp.path, namespace: "keyring")
        let stem = SessionFileName.stem(profile: "default", storage: "keyring", issuer: first.issuer, clientID: first.clientID)
        #expect(refresh.path(first) == tmp.path + "/" + stem + ".refresh.lock")
        #expect(signIn.path(first) == tmp.path + "/" + stem + ".signin.lock")
        #expect(refresh.path(first) != refresh.path(second) && signIn.path(first) != signIn.path(second))
        #expect(refresh.path(first) != FileProfileLock(directory: tmp.path, namespace: "file").path(first), "another store, another session")
        let mark = SessionMark.file(profile: "default", binding: CachePolicy.Binding(storage: "keyring", issuer: first.issuer,
                                                                                    clientID: first.clientID), directory: tmp.path)
        #expect(mark == tmp.path + "/" + stem + ".session", "a session's mark and locks share its name")
        #expect(refresh.legacyPath(profile: "default") == tmp.path + "/keyring-default.lock")
    }

    @Test func twoSessionsOfOneProfileNameAreLockedAtOnce() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let lock = FileProfileLock(directory: tmp.path, namespace: "keyring")
        var ran = false
        try lock.withLock(first, timeout: 1) {
            try lock.withLock(second, timeout: 0) { ran = true }
        }
        #expect(ran)
    }

    @Test func oneSessionIsLockedOnceAtATime() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let lock = FileProfileLock(directory: tmp.path, namespace: "keyring")
        // flock belongs to the open file description: a second open in this process waits as
        // another process would.
        try lock.withLock(first, timeout: 1) {
            #expect(timedOut { try lock.withLock(first, timeout: 0.1) {} })
        }
        try lock.withLock(first, timeout: 0) {}
    }

    @Test func anOlderKcauthHoldingTheOldNameExcludesARefreshAndIsExcluded() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let lock = FileProfileLock(directory: tmp.path, namespace: "keyring")
        try lock.withLock(first, timeout: 1) {}   // makes the directory
        // What kcauth before session-keyed locks does: flock(LOCK_EX) on <namespace>-<profile>.lock.
        let old = open(lock.legacyPath(profile: "default"), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(old >= 0)
        defer { close(old) }
        #expect(flock(old, LOCK_EX | LOCK_NB) == 0)
        #expect(timedOut { try lock.withLock(first, timeout: 0.2) {} }, "a new refresh waits for the old process")
        flock(old, LOCK_UN)
        try lock.withLock(first, timeout: 1) {
            #expect(flock(old, LOCK_EX | LOCK_NB) != 0, "the old process waits for the new refresh")
        }
        #expect(flock(old, LOCK_EX | LOCK_NB) == 0)
        flock(old, LOCK_UN)
    }

    @Test func signInsOfTwoSessionsOfOneProfileNameRunSideBySide() throws {
        let tmp = try NetTempDir()
        defer { tmp.remove() }
        let lock = FileSignInLock(directory: tmp.path, namespace: "keyring")
        guard case .held(let one) = try lock.take(first) else { Issue.record("the first sign-in is free"); return }
        one.started(at: 1_000)
        guard case .held(let two) = try lock.take(second) else { Issue.record("another provider's sign-in does not wait"); return }
        two.started(at: 1_001)
        // The same session is busy, and its record is its own holder's.
        guard case .busy(let record) = try lock.take(first) else { Issue.record("the same session waits"); return }
        #expect(record == SignInRecord(pid: getpid(), startedAt: 1_000))
        // The other configuration's sign-in fails: this session's waiter does not hear of it.
        two.finish(.failed(.timedOut))
        one.finish(.succeeded)
        #expect(try lock.waitForEnd(first, timeout: 1)?.outcome == .succeeded)
        #expect(try lock.waitForEnd(second, timeout: 1)?.outcome == .failed(.timedOut))
    }
}
