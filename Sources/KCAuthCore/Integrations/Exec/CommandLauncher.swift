/// The user's command, run for `exec`: kcauth becomes it (execve), or starts it and stays its
/// parent (keeping a token file fresh), passing on the signals sent to kcauth. A port so that the exec use
/// cases run in-process in tests without starting anything.
public protocol CommandLauncher: Sendable {
    /// Replaces this process with `arguments` (found on `PATH` of `environment`); returns only
    /// by throwing ``CommandStartFailure``.
    func replace(with arguments: [String], environment: [String: String]) throws -> Never
    /// Starts `arguments` as a child; throws ``CommandStartFailure`` when it cannot be started.
    func start(_ arguments: [String], environment: [String: String]) throws -> any RunningCommand
    /// While on, the signals passed on to a child are held back from kcauth itself.
    func holdSignals(_ on: Bool)
    /// A held signal that must be passed on to the child (one sent to kcauth alone), if any.
    func takePendingSignal() -> Int32?
    /// Ends kcauth by `signal`, as the child ended (does not return when the signal kills).
    func end(bySignal signal: Int32)
}
