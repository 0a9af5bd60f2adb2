/// The system `ssh`, started with an argument list (never a shell) on kcauth's terminal.
public protocol SSHClient: Sendable {
    /// Runs ssh with `arguments` and `environment` until it exits; the stop signals kcauth holds
    /// (SIGTERM, SIGHUP) are passed on to it meanwhile, and past `seconds` it is stopped.
    /// `whileWaiting` is called over and over while it runs (it may block for up to 100 ms);
    /// `captureOutput`: its standard output is returned; `quiet`: its stderr goes nowhere.
    /// Throws when ssh cannot be started.
    func run(_ arguments: [String], environment: [String: String], captureOutput: Bool, quiet: Bool, seconds: Int?,
             whileWaiting: (() -> Void)?) throws -> (status: Int32, output: [UInt8])
    /// Whether `path` exists (ssh's control socket).
    func exists(_ path: String) -> Bool
    /// Waits up to `milliseconds` for `path` to be removed (by the ssh that owns it).
    func waitUntilGone(_ path: String, milliseconds: Int)
}
