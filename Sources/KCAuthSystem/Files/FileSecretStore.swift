#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// `SecretStore` in plain files, only ever by explicit choice (`--storage file`,
/// `KCAUTH_STORAGE=file`, `storage = file`): one JSON auth state per profile in
/// `$XDG_STATE_HOME/kcauth/<profile>.json` (default `~/.local/state/kcauth/`).
///
/// The file is as good as the account's file permissions, no better: directory 0700, file 0600,
/// written atomically (`AtomicFile`: temp file, fsync, rename) so a crash or the keyring
/// watchdog's `_exit` never leaves half a state. Before trusting a file it checks that the file
/// is a regular file owned by this user that nobody else can read, and refuses it otherwise:
/// a readable refresh token must not be used as if it were still private.
public struct FileSecretStore: SecretStore {
    public let name = "file"
    public let directory: String
    /// Told once per write: the one-line plaintext warning (plaintext is never silent).
    private let warn: @Sendable (String) -> Void

    public init(directory: String, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.directory = directory
        self.warn = warn
    }

    /// `$XDG_STATE_HOME/kcauth`, else `$HOME/.local/state/kcauth` (a relative XDG_STATE_HOME is
    /// ignored, as the XDG Base Directory specification requires).
    public static func defaultDirectory(environment: [String: String]) -> String {
        Paths(environment: environment).stateDirectory
    }

    public func path(for profile: String) -> String { directory + "/" + profile + ".json" }

    public func checkAvailable() throws {
        try storageErrors { try AtomicFile.makeDirectory(directory) }
        try PrivateFile.checkDirectory(directory, repair: true)
    }

    public func read(profile: String) throws -> String? {
        guard access(directory, F_OK) == 0 else { return nil }
        try PrivateFile.checkDirectory(directory, repair: false)
        return try PrivateFile.read(path(for: profile))
    }

    public func write(_ secret: String, for key: SecretKey) throws {
        try checkAvailable()
        let path = path(for: key.profile)
        try storageErrors { try AtomicFile.write(secret, to: path) }
        warn("warning: the session of profile '\(key.profile)' is stored in plaintext in \(path) "
             + "(storage: file); anyone who can read that file can use it")
    }

    @discardableResult
    public func delete(profile: String) throws -> Bool {
        try PrivateFile.remove(path(for: profile), in: directory)
    }

    /// AtomicFile reports `configuration` (it also writes the config file); for the session
    /// store the same failure means "storage unavailable", exit 5.
    private func storageErrors(_ body: () throws -> Void) throws {
        do { try body() } catch var error as KCAuthError {
            error.code = .storageUnavailable
            throw error
        }
    }
}
