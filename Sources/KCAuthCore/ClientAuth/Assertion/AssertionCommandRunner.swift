/// Runs the program a `command:` assertion source names (like gcloud's executable-sourced
/// credentials): never through a shell, stdin from /dev/null (kcauth's own stdin may be a git
/// or docker request), stderr passed through to kcauth's, stdout captured. The system adapter
/// is `SystemAssertionCommands`.
public protocol AssertionCommandRunner: Sendable {
    /// Runs `argv` (the program found on `PATH`) with kcauth's environment plus `environment`;
    /// stops it past `seconds` (it is then killed). Throws `KCAuthError(.configuration)` when it
    /// cannot be started, naming the program.
    func run(_ argv: [String], environment: [String: String], seconds: Double, limit: Int) throws -> AssertionCommandOutcome
}

/// How a program run for an assertion ended.
public enum AssertionCommandOutcome: Sendable, Equatable {
    /// It exited (`status` as a shell gives it: 128+N for signal N) after printing `output`.
    case exited(status: Int32, output: [UInt8])
    /// It was still running at the deadline, and was killed.
    case timedOut
    /// It printed more than the limit on stdout, and was killed.
    case outputTooLarge
}
