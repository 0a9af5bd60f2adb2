#if canImport(Glibc)
import Glibc
#endif

/// Where kcauth keeps its files: the one place the XDG Base Directory rules and the uid-bound
/// directories are worked out, for both programs.
///
/// Two kinds of place. The configuration, the file store and the runtime token cache follow
/// the caller's environment (`XDG_*`, `HOME`), as the XDG spec says. What processes of one user
/// must share whatever their environment — refresh and sign-in locks, and the session marks that
/// say which session a cached token may belong to — is found from the uid alone, so that a cron
/// job and a terminal meet in the same place.
public struct ContractPaths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME/kcauth` (absolute only), else `$HOME/.config/kcauth`; `HOME` unset or
    /// empty counts as `/`.
    public var configDirectory: String
    /// `$XDG_STATE_HOME/kcauth` (absolute only), else `$HOME/.local/state/kcauth`: the file store.
    public var stateDirectory: String
    /// `$XDG_RUNTIME_DIR/kcauth` (absolute only): the runtime token cache; nil without one.
    public var runtimeDirectory: String?

    public init(environment: (String) -> String?) {
        func absolute(_ name: String) -> String? { environment(name).flatMap { ASCIIText.isAbsolute($0) ? $0 : nil } }
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let base = home == "/" ? "" : home
        configDirectory = (absolute("XDG_CONFIG_HOME") ?? base + "/.config") + "/kcauth"
        stateDirectory = (absolute("XDG_STATE_HOME") ?? base + "/.local/state") + "/kcauth"
        runtimeDirectory = absolute("XDG_RUNTIME_DIR").map { $0 + "/kcauth" }
    }

    public var configFile: String { configDirectory + "/config" }

    /// The runtime cache entry of a profile (a valid profile name: see ``ProfileNameRule``).
    public func cacheFile(profile: String) -> String? { runtimeDirectory.map { $0 + "/" + profile + ".token" } }

    /// Where refresh locks, sign-in locks and session marks live. Deliberately NOT from the
    /// environment: a cron job (no `XDG_RUNTIME_DIR`) and a terminal must take the same lock for
    /// the same session, or both refresh at once and the provider ends the session (refresh-token
    /// reuse detection). And only the user may be able to create it: a directory another user
    /// made first (as `/tmp/kcauth-UID` could be) would block every refresh and sign-in for good.
    /// So: the user's runtime directory by uid (`/run/user/UID`, what logind creates and
    /// `XDG_RUNTIME_DIR` normally names) when it exists, is ours and private; else
    /// `HOME/.local/state/kcauth/locks` with the home of the password database (`home`, by
    /// default `/etc/passwd`; it must exist and be the user's), never `$HOME`; nil when neither
    /// exists (no place: the caller says so).
    public static func sharedDirectory(uid: uid_t = geteuid(), home: (uid_t) -> String? = { PasswordFile.home(uid: $0) }) -> String? {
        var runBytes = Array("/run/user/".utf8)
        ASCIIText.appendDecimal(UInt64(uid), to: &runBytes)   // not interpolation: docs/performance.md §4
        let run = String(decoding: runBytes, as: UTF8.self)
        var info = stat()
        if lstat(run, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid, info.st_mode & 0o077 == 0 {
            return run + "/kcauth-locks"
        }
        // The home must exist and be the user's: kcauth creates what is below it, never the home.
        guard let home = home(uid), stat(home, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid else { return nil }
        return home + "/.local/state/kcauth/locks"
    }

    /// Creates `directory` and the missing directories above it, each 0700 (as `mkdir -p` with
    /// umask 077): only the last one must then pass the caller's ownership check. False when
    /// one cannot be made.
    @discardableResult
    public static func makeDirectories(_ directory: String) -> Bool {
        var current = ""
        for part in directory.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0, errno != EEXIST { return false }
        }
        return true
    }
}
