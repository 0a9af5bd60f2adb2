#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// `SignInLock` over `flock(2)` on `<lock directory>/signin-<profile>.lock`, beside the refresh
/// locks (by uid, whatever the caller's environment: a kubectl in one terminal and a cron job
/// wait for the same sign-in). The file holds the holder's ``SignInRecord``; the kernel drops
/// the lock when the holder dies, so a dead holder is taken over at once and never needs
/// cleaning up (its record, still `running`, tells the waiters it died).
public struct FileSignInLock: SignInLock {
    public let directory: String?

    public init(directory: String? = Paths.lockDirectory()) { self.directory = directory }

    public func path(profile: String) -> String { (directory ?? "") + "/signin-" + profile + ".lock" }

    public func take(profile: String) throws -> SignInAttempt {
        let fd = try open(profile: profile)
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return .held(Holding(fd: fd)) }
        let record = Self.record(fd)
        close(fd)
        return .busy(record)
    }

    public func waitForEnd(profile: String, timeout: Double) throws -> SignInRecord? {
        let fd = try open(profile: profile)
        defer { close(fd) }
        var waited = 0.0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard waited < timeout else {
                throw KCAuthError(.timedOut, "the sign-in in progress for profile '\(profile)' did not end within \(Int(timeout)) s",
                                  hint: "check for a hung kcauth process (lock file \(path(profile: profile)))")
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

    private func open(profile: String) throws -> Int32 {
        try FileProfileLock.prepare(directory)
        let path = path(profile: profile)
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
