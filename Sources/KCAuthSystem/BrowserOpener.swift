import Glibc
import KCAuthCore

/// Opens a URL with `$BROWSER` or, when it is unset or empty, `xdg-open`.
///
/// `$BROWSER` follows the classic convention: a `:`-separated list of commands, tried in order
/// until one starts. In a command, `%s` is replaced by the URL (`%%` is a literal `%`); without
/// `%s` the URL is appended as the last argument. Words are split on whitespace and run with
/// `posix_spawnp`, never through a shell, so `&`, `;` or spaces in the URL stay data.
///
/// The launcher's stdin is `/dev/null` and its stdout goes to kcauth's stderr: stdout is data
/// (`kcauth token` prints only the token), and browsers chatter. The child is not waited for;
/// a launcher that outlives kcauth is re-parented, and one that exits first stays a zombie only
/// until kcauth exits.
public struct BrowserOpener: URLOpener {
    private let environment: [String: String]
    /// Where the child's stdout and stderr go; kcauth's stderr in production.
    private let outputFD: Int32

    public init(environment: [String: String]) {
        self.init(environment: environment, outputFD: STDERR_FILENO)
    }

    /// For tests: send the launcher's output to `outputFD` instead of stderr.
    init(environment: [String: String], outputFD: Int32) {
        self.environment = environment
        self.outputFD = outputFD
    }

    public func open(_ url: String) throws {
        let commands = Self.commands(browser: environment["BROWSER"], url: url)
        var tried: [String] = []
        var causes: [String] = []
        for argv in commands {
            tried.append(argv[0])
            do {
                return try spawn(argv)
            } catch {
                causes.append("\(argv[0]): \((error as? KCAuthError)?.cause ?? "\(error)")")
            }
        }
        throw KCAuthError(.configuration, "cannot start a browser (tried: \(tried.joined(separator: ", ")))",
                          hint: "open the URL printed above yourself, or set $BROWSER",
                          cause: causes.joined(separator: "; "))
    }

    /// The argument vectors to try, in order.
    static func commands(browser: String?, url: String) -> [[String]] {
        guard let browser, browser.contains(where: { !$0.isWhitespace && $0 != ":" }) else {
            return [["xdg-open", url]]
        }
        return browser.split(separator: ":").compactMap { entry in
            let words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard !words.isEmpty else { return nil }
            var substituted = false
            var argv = words.map { word -> String in
                guard word.contains("%") else { return String(word) }
                let (text, didSubstitute) = substitute(word, url: url)
                substituted = substituted || didSubstitute
                return text
            }
            if !substituted { argv.append(url) }
            return argv
        }
    }

    /// `%s` → the URL, `%%` → `%`; any other `%` stays as it is.
    private static func substitute(_ word: Substring, url: String) -> (String, Bool) {
        var result = ""
        var substituted = false
        var index = word.startIndex
        while index < word.endIndex {
            let next = word.index(after: index)
            if word[index] == "%", next < word.endIndex, word[next] == "s" || word[next] == "%" {
                if word[next] == "s" {
                    result += url
                    substituted = true
                } else {
                    result += "%"
                }
                index = word.index(after: next)
            } else {
                result.append(word[index])
                index = next
            }
        }
        return (result, substituted)
    }
}

extension BrowserOpener {
    /// Starts `argv` without waiting for it; throws when it cannot be started.
    private func spawn(_ argv: [String]) throws {
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
        // A fresh signal mask and default dispositions: kcauth may block or ignore signals
        // (SIGINT handling, SIGPIPE), and a browser must not inherit that. Its own process
        // group keeps a Ctrl-C aimed at kcauth from killing a browser it just started.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

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
