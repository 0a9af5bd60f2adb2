#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// `ProfileLock` over `flock(2)` on `<directory>/<namespace>-<profile>.lock`.
///
/// The file name is the session's identity (its store and profile), and the directory depends
/// only on the user (`Paths.lockDirectory`), so every process of the user that can reach the
/// same stored session takes the same lock, whatever its environment.
///
/// flock locks belong to the open file description, are released by the kernel when the process
/// dies (even by SIGKILL), and need no clean-up of stale lock files: the file itself stays.
public struct FileProfileLock: ProfileLock {
    /// nil: the user has no place for locks (no runtime directory, no home): every lock fails.
    public let directory: String?
    /// The store kind (`keyring`, `file`): sessions in different stores are different sessions.
    public let namespace: String

    public init(directory: String? = Paths.lockDirectory(), namespace: String) {
        self.directory = directory
        self.namespace = namespace
    }

    public func path(profile: String) -> String { (directory ?? "") + "/" + namespace + "-" + profile + ".lock" }

    public func withLock<T>(profile: String, timeout: Double, _ body: () throws -> T) throws -> T {
        let directory = try Self.prepare(directory)
        let path = path(profile: profile)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw KCAuthError(.configuration, "cannot open the lock file \(path): \(String(cString: strerror(errno)))",
                              hint: "remove \(path) if it is not a regular file of yours")
        }
        defer { close(fd) }
        // Poll with LOCK_NB rather than block: a blocking flock cannot be given a deadline
        // without signals, and a stuck holder must not hang every script that wants a token.
        var waited = 0.0
        var pause = 0.002
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw KCAuthError(.configuration, "cannot lock \(path): \(String(cString: strerror(errno)))",
                                  hint: "check that the file system of \(directory) supports flock")
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
        // What runs under the lock sends a refresh or a sign-out and stores the answer: a signal
        // that ends kcauth meanwhile waits for it (a provider that rotated a refresh token
        // nobody stored would end the session).
        return try ProcessSignals.finishing(body)
    }

    /// The lock directory made (0700) and checked: ours, closed to others. Shared by every lock
    /// and by the private run directories in it.
    @discardableResult
    static func prepare(_ directory: String?) throws -> String {
        guard let directory else { throw noPlace() }
        do {
            try AtomicFile.makeDirectory(directory)
            try PrivateFile.checkDirectory(directory, repair: true)
        } catch let error as KCAuthError {
            throw KCAuthError(.configuration, error.message, hint: error.hint, remedy: error.remedy)
        }
        return directory
    }

    /// Neither `/run/user/UID` nor a home directory in the password database.
    static func noPlace() -> KCAuthError {
        KCAuthError(.configuration, "no place for kcauth's locks: /run/user/\(geteuid()) does not exist and the user has no home directory",
                    hint: "give the user a home directory (or a login session with /run/user/\(geteuid()))")
    }
}
