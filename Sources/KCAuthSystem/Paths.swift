#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// Where kcauth keeps its files: the one place the XDG Base Directory rules are applied.
public struct Paths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME/kcauth` (default `~/.config/kcauth`): the configuration file.
    public var configDirectory: String
    /// `$XDG_STATE_HOME/kcauth` (default `~/.local/state/kcauth`): the file store.
    public var stateDirectory: String
    /// `$XDG_RUNTIME_DIR/kcauth`: the runtime token cache; nil without a runtime directory.
    public var runtimeDirectory: String?

    public init(environment: [String: String]) {
        func absolute(_ name: String) -> String? { environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        configDirectory = (absolute("XDG_CONFIG_HOME") ?? home + "/.config") + "/kcauth"
        stateDirectory = (absolute("XDG_STATE_HOME") ?? home + "/.local/state") + "/kcauth"
        runtimeDirectory = absolute("XDG_RUNTIME_DIR").map { $0 + "/kcauth" }
    }

    public var configFile: String { configDirectory + "/config" }

    /// Where refresh locks live. Deliberately NOT from the environment: a cron job (no
    /// `XDG_RUNTIME_DIR`) and a terminal must take the same lock for the same session, or both
    /// refresh at once and the provider ends the session (refresh-token reuse detection). So:
    /// the user's runtime directory by uid (`/run/user/UID`, what logind creates and
    /// `XDG_RUNTIME_DIR` normally names) when it exists and is ours, else `/tmp/kcauth-UID`
    /// (created 0700; refused if someone else owns it).
    public static func lockDirectory(uid: uid_t = geteuid()) -> String {
        let run = "/run/user/\(uid)"
        var info = stat()
        if lstat(run, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid, info.st_mode & 0o077 == 0 {
            return run + "/kcauth-locks"
        }
        return "/tmp/kcauth-\(uid)"
    }
}
