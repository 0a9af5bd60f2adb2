#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// `ProfileLock` over `flock(2)` on `<directory>/<profile>.lock`.
///
/// flock locks belong to the open file description, are released by the kernel when the process
/// dies (even by SIGKILL), and need no clean-up of stale lock files: the file itself stays.
public struct FileProfileLock: ProfileLock {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public func withLock<T>(profile: String, timeout: Double, _ body: () throws -> T) throws -> T {
        try AtomicFile.makeDirectory(directory)
        let path = directory + "/" + profile + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw KCAuthError(.configuration, "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        // Poll with LOCK_NB rather than block: a blocking flock cannot be given a deadline
        // without signals, and a stuck holder must not hang every script that wants a token.
        var waited = 0.0
        var pause = 0.002
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw KCAuthError(.configuration, "cannot lock \(path): \(String(cString: strerror(errno)))")
            }
            guard waited < timeout else {
                throw KCAuthError(.timedOut, "another kcauth process has held the lock of profile '\(profile)' for \(Int(timeout)) s",
                                  hint: "check for a hung kcauth process (lock file \(path))")
            }
            usleep(useconds_t(pause * 1_000_000))
            waited += pause
            pause = min(pause * 2, 0.05)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
