#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// `SignInLock` over `flock(2)` on `<lock directory>/<profile>.<digest>.signin.lock`, the digest
/// that of the store (`namespace`), issuer and client id the sign-in is for (``SessionFileName``),
/// beside the refresh locks (by uid, whatever the caller's environment: a kubectl in one terminal
/// and a cron job wait for the same sign-in; a configuration of its own with the same profile
/// name and another provider does not). The file holds the holder's ``SignInRecord``; the kernel
/// drops the lock when the holder dies, so a dead holder is taken over at once and never needs
/// cleaning up (its record, still `running`, tells the waiters it died).
///
/// The issuer and client id are those of the profile once it is complete: a first-run login asks
/// its questions before it takes the lock, so the lock covers the sign-in, not the questions.
///
/// An upgrade: kcauth before session-keyed locks used `signin-<profile>.lock`. A sign-in of that
/// version and one of this version at the same moment each open a browser; both sign in, and the
/// later one's session is the one kept, as after two logins one after the other. Nothing is
/// lost, so the old name is not taken (it would make every configuration's sign-ins of the
/// profile wait for each other again).
public struct FileSignInLock: SignInLock {
    public let directory: String?
    /// The store kind (`keyring`, `file`): a sign-in into another store is another session's.
    public let namespace: String

    public init(directory: String? = Paths.lockDirectory(), namespace: String) {
        self.directory = directory
        self.namespace = namespace
    }

    public func path(_ session: SecretKey) -> String {
        (directory ?? "") + "/" + SessionFileName.stem(profile: session.profile, storage: namespace, issuer: session.issuer,
                                                      clientID: session.clientID) + SessionFileName.signInLock
    }

    public func take(_ session: SecretKey) throws -> SignInAttempt {
        let fd = try open(session)
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return .held(Holding(fd: fd)) }
        let record = Self.record(fd)
        close(fd)
        return .busy(record)
    }

    public func waitForEnd(_ session: SecretKey, timeout: Double) throws -> SignInRecord? {
        let fd = try open(session)
        defer { close(fd) }
        var waited = 0.0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard waited < timeout else {
                throw KCAuthError(.timedOut, "the sign-in in progress for profile '\(session.profile)' did not end within \(Int(timeout)) s",
                                  hint: "check for a hung kcauth process (lock file \(path(session)))")
            }
            usleep(100_000)  // a person is signing in: a tenth of a second is soon enough
            waited += 0.1
        }
        defer { flock(fd, LOCK_UN) }
        return Self.record(fd)
    }

    public func askToStop(_ record: SignInRecord) -> Bool {
        // Only a live process of ours, and a kcauth one: a pid from a file may have been reused.
        guard record.outcome == nil, Self.isOurKcauth(record.pid) else { return false }
        return kill(record.pid, SIGTERM) == 0
    }

    private func open(_ session: SecretKey) throws -> Int32 {
        try FileProfileLock.prepare(directory)
        let path = path(session)
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw KCAuthError(.configuration, "cannot open the sign-in lock \(path): \(String(cString: strerror(errno)))",
                              hint: "remove \(path) if it is not a regular file of yours")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            close(fd)
            throw KCAuthError(.configuration, "the sign-in lock \(path) is not a regular file of yours", hint: "remove \(path)")
        }
        return fd
    }

    static func record(_ fd: Int32) -> SignInRecord? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = pread(fd, &buffer, buffer.count, 0)
        return n > 0 ? SignInRecord(String(decoding: buffer[..<n], as: UTF8.self)) : nil
    }

    /// `/proc/PID` owned by us, and its executable named like ours (`kcauth`, `kcauth-full`).
    static func isOurKcauth(_ pid: Int32) -> Bool {
        var info = stat()
        guard pid > 0, stat("/proc/\(pid)", &info) == 0, info.st_uid == geteuid() else { return false }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return false }
        let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let name = target.split(separator: "/").last.map(String.init) ?? ""
        return name.hasPrefix("kcauth")
    }

    final class Holding: SignInHolding {
        private var fd: Int32

        init(fd: Int32) { self.fd = fd }

        deinit { release() }

        func started(at epochSeconds: Double) { write(SignInRecord(pid: getpid(), startedAt: epochSeconds)) }

        func finish(_ outcome: SignInRecord.Outcome) {
            guard fd >= 0 else { return }
            if var record = FileSignInLock.record(fd) {
                record.outcome = outcome
                write(record)
            }
            release()
        }

        func release() {
            guard fd >= 0 else { return }
            close(fd)  // drops the flock
            fd = -1
        }

        private func write(_ record: SignInRecord) {
            guard fd >= 0 else { return }
            let bytes = Array(record.encoded.utf8)
            guard ftruncate(fd, 0) == 0 else { return }
            _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
    }
}
