/// A command ``CommandLauncher`` started and kcauth waits for.
public protocol RunningCommand: Sendable {
    /// The exit status as a shell gives it (128+N for signal N), or nil while it runs.
    func poll() -> Int32?
    /// Passes `signal` on to the command.
    func send(_ signal: Int32)
}
