import Glibc
import KCAuthCore

/// Opens a URL with the profile's `--browser-command`, else `$BROWSER`, else (on WSL) the Windows
/// browser, else `xdg-open`.
///
/// `$BROWSER` follows the classic convention: a `:`-separated list of commands, tried in order
/// until one starts. In a command, `%s` is replaced by the URL (`%%` is a literal `%`); without
/// `%s` the URL is appended as the last argument. Words are split on whitespace and run with
/// `posix_spawnp`, never through a shell, so `&`, `;` or spaces in the URL stay data.
/// `--browser-command` is split like a shell would (`BrowserCommand`) and run the same way.
///
/// On WSL (`WSLDetection`) the browser is a Windows program: `wslview` (wslu), else
/// `powershell.exe -NoProfile -Command Start-Process '<url>'`, else `cmd.exe /c start "" <url>`.
///
/// The launcher's stdin is `/dev/null` and its stdout goes to kcauth's stderr: stdout is data
/// (`kcauth token` prints only the token), and browsers chatter. `launch` hands back the child
/// so the login can notice a launcher that exits non-zero at once (and then try the next
/// candidate); a launcher that outlives kcauth is re-parented.
public struct BrowserOpener: URLOpener {
    private let environment: [String: String]
    /// Where the child's stdout and stderr go; kcauth's stderr in production.
    private let outputFD: Int32
    /// Whether this is WSL; nil: ask `WSLProbe` when a browser is needed (not at start-up:
    /// `kcauth token` never opens one).
    private let wsl: Bool?

    public init(environment: [String: String], wsl: Bool? = nil) {
        self.init(environment: environment, outputFD: STDERR_FILENO, wsl: wsl)
    }

    /// For tests: send the launcher's output to `outputFD` instead of stderr.
    init(environment: [String: String], outputFD: Int32, wsl: Bool? = nil) {
        self.environment = environment
        self.outputFD = outputFD
        self.wsl = wsl
    }

    public func open(_ url: WireText) throws {
        _ = try launch(url, command: nil)
    }

    /// The launcher's argv is the URL's wire: its secrets are revealed there.
    public func launch(_ url: WireText, command: BrowserCommand?) throws -> (any LaunchedBrowser)? {
        let url = url.reveal()
        var candidates = command.map { [$0.arguments(for: url)] } ?? Self.commands(browser: environment["BROWSER"], url: url,
                                                                                    wsl: wsl ?? WSLProbe().isWSL(environment: environment))
        var tried: [String] = []
        var causes: [String] = []
        while !candidates.isEmpty {
            let argv = candidates.removeFirst()
            tried.append(argv[0])
            do {
                let pid = try spawn(argv)
                return LauncherProcess(pid: pid, name: argv[0], remaining: candidates, start: { try spawn($0) })
            } catch {
                causes.append("\(argv[0]): \((error as? KCAuthError)?.cause ?? "\(error)")")
            }
        }
        throw KCAuthError(.configuration, "cannot start a browser (tried: \(tried.joined(separator: ", ")))",
                          cause: causes.joined(separator: "; "), remedy: .openAddressYourself(fixCommand: command != nil))
    }

    /// The argument vectors to try, in order.
    static func commands(browser: String?, url: String, wsl: Bool = false) -> [[String]] {
        guard let browser, browser.contains(where: { !$0.isWhitespace && $0 != ":" }) else {
            return wsl ? windowsLaunchers(url) : [["xdg-open", url]]
        }
        return browser.split(separator: ":").compactMap { entry in
            let words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard !words.isEmpty else { return nil }
            var substituted = false
            var argv = words.map { word -> String in
                guard word.contains("%") else { return String(word) }
                let (text, didSubstitute) = BrowserCommand.substitute(String(word), url: url)
                substituted = substituted || didSubstitute
                return text
            }
            if !substituted { argv.append(url) }
            return argv
        }
    }

    /// WSL: the Windows browser, through wslu's `wslview`, else Windows' own launchers. The URL
    /// is a PowerShell string literal (a `'` doubled, as PowerShell's quoting rules require), and
    /// is given to `cmd.exe` only when it holds none of cmd's metacharacters.
    static func windowsLaunchers(_ url: String) -> [[String]] {
        var launchers = [["wslview", url],
                         ["powershell.exe", "-NoProfile", "-Command", "Start-Process '" + url.replacingAll("'", with: "''") + "'"]]
        if !url.contains(where: { "&|<>^%\"()! \t".contains($0) }) {
            launchers.append(["cmd.exe", "/c", "start", "\"\"", url])
        }
        return launchers
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for c in self { if c == target { result += replacement } else { result.append(c) } }
        return result
    }
}

extension BrowserOpener {
    /// Starts `argv` without waiting for it and returns its process id; throws when it cannot
    /// be started.
    private func spawn(_ argv: [String]) throws -> pid_t {
        // posix_spawnp would search kcauth's own PATH; resolve against the environment the
        // child gets instead, so a caller-supplied PATH is honoured, and hand over a path.
        guard let program = Self.resolve(argv[0], path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else {
            throw KCAuthError(.configuration, "cannot start \(argv[0])", cause: "not found on PATH")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputFD, STDOUT_FILENO)  // stdout is data: never the browser's
        if outputFD != STDERR_FILENO {
            posix_spawn_file_actions_adddup2(&actions, outputFD, STDERR_FILENO)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A fresh signal mask and default dispositions (SpawnSignals). Its own process group
        // keeps a Ctrl-C aimed at kcauth from killing a browser it just started.
        posix_spawnattr_setpgroup(&attributes, 0)
        SpawnSignals.reset(&attributes, flags: Int32(POSIX_SPAWN_SETPGROUP))

        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let result = withCStrings(argv) { cArgv in
            withCStrings(envp) { cEnvp in
                posix_spawnp(&pid, program, &actions, &attributes, cArgv, cEnvp)
            }
        }
        // glibc reports a failed exec (missing or non-executable file) as the spawn's result.
        guard result == 0 else {
            throw KCAuthError(.configuration, "cannot start \(argv[0])", cause: String(cString: strerror(result)))
        }
        return pid
    }

    /// `name` itself when it holds a `/`, else the first executable regular file `name` on
    /// `path` (an empty entry means the current directory, as in execvp).
    static func resolve(_ name: String, path: String) -> String? {
        guard !name.contains("/") else { return name }
        for directory in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}

/// Runs `body` with a NULL-terminated `char *[]` copy of `strings`, freed afterwards.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
