#if canImport(Glibc)
import Glibc
#endif

/// How both programs start a user's command in place of themselves (`kcauth exec`): the same
/// `PATH` search and the same signal state, so the front and kcauth-full run the same program
/// the same way.
public enum CommandExec {
    /// A name with a `/` is a path; otherwise each directory of `PATH` in order (an empty entry is
    /// `.`), or the default path without one — as execvp(3).
    public static func candidates(_ name: String, searchPath: String?) -> [String] {
        if name.contains("/") { return [name] }
        guard !name.isEmpty else { return [] }
        return (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
            .map { ($0.isEmpty ? "." : String($0)) + "/" + name }
    }

    /// The signals a program kcauth starts or becomes gets with their default action: those
    /// kcauth takes (the full program blocks them for the whole process) and those a parent
    /// may have set to "ignore" (SIGPIPE, SIGCHLD).
    public static let defaultedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2]

    /// Dispositions set to "ignore" and blocked signals survive exec: hand the command the
    /// defaults a freshly started program expects. Returns the signal mask it replaced.
    @discardableResult
    public static func resetSignals() -> sigset_t {
        for sig in defaultedSignals { signal(sig, SIG_DFL) }
        var none = sigset_t(), original = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &original)
        return original
    }
}
