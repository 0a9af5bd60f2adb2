#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// `ProfileLock` over `flock(2)` on `<directory>/<profile>.<digest>.refresh.lock`, the digest
/// that of the store (`namespace`), issuer and client id (``SessionFileName``).
///
/// The file name is the stored session's identity, and the directory depends only on the user
/// (`Paths.lockDirectory`), so every process of the user that can reach the same stored session
/// takes the same lock, whatever its environment; a profile of the same name that is another
/// session (another configuration's provider or client) has a lock of its own.
///
/// flock locks belong to the open file description, are released by the kernel when the process
/// dies (even by SIGKILL), and need no clean-up of stale lock files: the file itself stays.
///
/// An upgrade: kcauth before session-keyed locks took `<namespace>-<profile>.lock` alone,
/// exclusively. A process of that version can outlive the upgrade by hours (`exec --keep-fresh`,
/// `forward-agent`, `kcauth ssh` refresh as they run), and if it refreshed the session beside a
/// new process that took only the new name, a provider with reuse detection would end the
/// session. So the new lock also holds the old name, shared: an old process and a new one
/// exclude each other, while new processes (serialised by the session's own lock) never wait
/// for each other on it. It can go once no kcauth without session-keyed locks may still run.
public struct FileProfileLock: ProfileLock {
    /// nil: the user has no place for locks (no runtime directory, no home): every lock fails.
    public let directory: String?
    /// The store kind (`keyring`, `file`): sessions in different stores are different sessions.
    public let namespace: String

    public init(directory: String? = Paths.lockDirectory(), namespace: String) {
        self.directory = directory
        self.namespace = namespace
    }

    public func path(_ session: SecretKey) -> String {
        (directory ?? "") + "/" + SessionFileName.stem(profile: session.profile, storage: namespace, issuer: session.issuer,
                                                      clientID: session.clientID) + SessionFileName.refreshLock
    }

    /// The name older kcauth locks (see the type's comment).
    public func legacyPath(profile: String) -> String { (directory ?? "") + "/" + namespace + "-" + profile + ".lock" }

    public func withLock<T>(_ session: SecretKey, timeout: Double, _ body: () throws -> T) throws -> T {
        let directory = try Self.prepare(directory)
        var waited = 0.0
        let own = try Self.open(path(session))
        defer { close(own) }
        try Self.hold(own, LOCK_EX, path: path(session), profile: session.profile, in: directory, timeout: timeout, waited: &waited)
        defer { flock(own, LOCK_UN) }
        let legacy = legacyPath(profile: session.profile)
        let old = try Self.open(legacy)
        defer { close(old) }
        try Self.hold(old, LOCK_SH, path: legacy, profile: session.profile, in: directory, timeout: timeout, waited: &waited)
        defer { flock(old, LOCK_UN) }
        // What runs under the lock sends a refresh or a sign-out and stores the answer: a signal
        // that ends kcauth meanwhile waits for it (a provider that rotated a refresh token
        // nobody stored would end the session).
        return try ProcessSignals.finishing(body)
    }

    private static func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw KCAuthError(.configuration, "cannot open the lock file \(path): \(String(cString: strerror(errno)))",
                              hint: "remove \(path) if it is not a regular file of yours")
        }
        return fd
    }

    /// Takes `operation` (`LOCK_EX`, `LOCK_SH`) on `fd` within what is left of `timeout`.
    /// Polls with LOCK_NB rather than block: a blocking flock cannot be given a deadline without
    /// signals, and a stuck holder must not hang every script that wants a token.
    private static func hold(_ fd: Int32, _ operation: Int32, path: String, profile: String, in directory: String,
                             timeout: Double, waited: inout Double) throws {
        var pause = 0.002
        while flock(fd, operation | LOCK_NB) != 0 {
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
