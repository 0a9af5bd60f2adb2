#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// `kcauth exec`: replace kcauth with the user's command (execvp(3)), the way `env` and `nice`
/// do. The command then *is* the process its caller started: every signal sent to it (Ctrl-C,
/// SIGTERM from a supervisor) reaches it directly, and its exit status is the status the caller
/// sees, with no relay that could lose either.
public enum ProcessReplacement {
    /// Throws `CommandStartFailure` when no candidate could be run.
    public static func exec(_ arguments: [String], environment: [String: String]) throws -> Never {
        precondition(!arguments.isEmpty)
        CommandExec.resetSignals()

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var reason = ENOENT
        for path in CommandExec.candidates(arguments[0], searchPath: environment["PATH"]) {
            execve(path, argv, envp)
            // As execvp(3): a later PATH entry may still hold a runnable file.
            if errno != ENOENT && errno != ENOTDIR { reason = errno }
        }
        let error = KCAuthError(.usage, "cannot run '\(Sanitize.oneLine(arguments[0], limit: 200))': \(String(cString: strerror(reason)))",
                                hint: reason == ENOENT ? "check the command's name and PATH" : "check that it is an executable file you may run")
        throw CommandStartFailure(error, status: reason == ENOENT ? CommandStartFailure.notFound : CommandStartFailure.cannotRun)
    }
}
