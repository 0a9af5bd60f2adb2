import KCAuthSystem

/// For a program's entry point: the signals kcauth ends on or passes on (SIGINT, SIGQUIT,
/// SIGTERM, SIGHUP, SIGUSR1, SIGUSR2), taken for the whole process in one place
/// (``ProcessSignals``). Call ``takeOver()`` first in `main`, before anything starts a thread:
/// then `exec --keep-fresh`, `ssh` and `forward-agent` pass signals on whatever threads libsecret
/// and libcurl have started, and every other verb ends as an unhandled signal would end it, with
/// the terminal restored and a refresh in flight stored.
public enum ProgramSignals {
    public static func takeOver() { ProcessSignals.takeOver() }

    /// Runs `body`; if a signal ends kcauth meanwhile, `last` runs first (on the thread that took
    /// the signal, while `body`'s thread may still write: keep it to one write).
    public static func onEnding<T>(_ last: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        try ProcessSignals.onEnding(last, body)
    }
}
