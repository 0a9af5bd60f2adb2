#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// `kcauth exec`: replace kcauth with the user's command (execvp(3)), the way `env` and `nice`
/// do. The command then *is* the process its caller started: every signal sent to it (Ctrl-C,
/// SIGTERM from a supervisor) reaches it directly, and its exit status is the status the caller
/// sees, with no relay that could lose either.
public enum ProcessReplacement {
    /// Throws `CommandStartFailure` when no candidate could be run.
    public static func exec(_ arguments: [String], environment: [String: String]) throws -> Never {
        precondition(!arguments.isEmpty)
        // Dispositions set to "ignore" and blocked signals survive exec: hand the command the
        // defaults a freshly started program expects.
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2] { signal(sig, SIG_DFL) }
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var reason = ENOENT
        for path in candidates(arguments[0], searchPath: environment["PATH"]) {
            execve(path, argv, envp)
            // As execvp(3): a later PATH entry may still hold a runnable file.
            if errno != ENOENT && errno != ENOTDIR { reason = errno }
        }
        let error = KCAuthError(.usage, "cannot run '\(Sanitize.oneLine(arguments[0], limit: 200))': \(String(cString: strerror(reason)))",
                                hint: reason == ENOENT ? "check the command's name and PATH" : "check that it is an executable file you may run")
        throw CommandStartFailure(error, status: reason == ENOENT ? CommandStartFailure.notFound : CommandStartFailure.cannotRun)
    }

    /// A name with a slash is a path; otherwise each directory of PATH, in order.
    static func candidates(_ name: String, searchPath: String?) -> [String] {
        if name.contains("/") { return [name] }
        guard !name.isEmpty else { return [] }
        return (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
            .map { ($0.isEmpty ? "." : String($0)) + "/" + name }
    }
}
