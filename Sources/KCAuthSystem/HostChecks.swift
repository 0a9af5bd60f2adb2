#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// The local half of `kcauth doctor` that is not the keyring: the runtime directory, the
/// browser launcher, and (when the session lives in a file) the state file.
public struct HostChecks: Sendable {
    private let environment: [String: String]
    /// Replaceable in tests (the kernel release file).
    var wslProbe = WSLProbe()

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// `$XDG_RUNTIME_DIR`: where the session bus socket and kcauth's access-token cache live. The
    /// XDG spec requires it to be owned by the user with mode 0700.
    public func runtimeDirectory() -> DoctorCheck {
        let (id, title) = ("runtime-dir", "runtime directory")
        guard let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty else {
            return DoctorCheck(id, title, .fail, "$XDG_RUNTIME_DIR is not set",
                               fix: "log in through a session manager (systemd-logind sets it), or export XDG_RUNTIME_DIR=/run/user/$(id -u)")
        }
        var info = stat()
        guard dir.hasPrefix("/"), stat(dir, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return DoctorCheck(id, title, .fail, "$XDG_RUNTIME_DIR (\(dir)) is not an existing absolute directory",
                               fix: "point XDG_RUNTIME_DIR at your runtime directory, usually /run/user/$(id -u)")
        }
        guard info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            return DoctorCheck(id, title, .fail, "\(dir) must be yours with mode 0700 (it is uid \(info.st_uid), mode \(PrivateFile.octal(info.st_mode & 0o777)))",
                               fix: "`chmod 700 \(dir)`, or use the directory your login session created")
        }
        guard access(dir, W_OK | X_OK) == 0 else {
            return DoctorCheck(id, title, .fail, "\(dir) is not writable", fix: "use the directory your login session created")
        }
        return .pass(id, title, "\(dir) is private and writable")
    }

    /// What `login` would start: the first `$BROWSER` entry found on `$PATH`, else `xdg-open`.
    public func browser() -> DoctorCheck {
        let (id, title) = ("browser", "browser launcher")
        // WSL (`WSLDetection`): the Windows browser, through wslview or Windows' own launchers.
        let wsl = wslProbe.isWSL(environment: environment)
        let wslNote = wsl ? "; WSL detected (\(environment["WSL_DISTRO_NAME"].map { "WSL_DISTRO_NAME=\($0)" } ?? "Microsoft kernel")): the Windows browser opens" : ""
        let commands = BrowserOpener.commands(browser: environment["BROWSER"], url: "URL", wsl: wsl)
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for argv in commands {
            if let program = BrowserOpener.resolve(argv[0], path: path), access(program, X_OK) == 0 {
                let source = environment["BROWSER"]?.isEmpty == false ? " (from $BROWSER)" : ""
                return .pass(id, title, program + source + wslNote)
            }
        }
        let tried = commands.map { $0[0] }.joined(separator: ", ")
        return DoctorCheck(id, title, .fail, "no browser launcher found (tried: \(tried))\(wslNote)",
                           remedy: .installBrowserLauncher(wsl: wsl))
    }

    /// The CA file a profile trusts for its provider (``CAFileCheck``).
    public func caFile(_ path: String) -> DoctorCheck { CAFileCheck.run(path) }

    /// The file store of `profile`: its directory is private and the file, if there is one, is
    /// one kcauth would trust.
    public func fileStore(_ store: FileSecretStore, profile: String) -> DoctorCheck {
        let (id, title) = ("state-file", "session file")
        do {
            let present = try store.read(profile: profile) != nil
            return .pass(id, title, present ? "\(store.path(for: profile)) is private (0600)" : "no session stored yet in \(store.directory)")
        } catch let error as KCAuthError {
            return .fail(id, title, error)
        } catch {
            return .fail(id, title, KCAuthError.wrapping(error))
        }
    }
}
