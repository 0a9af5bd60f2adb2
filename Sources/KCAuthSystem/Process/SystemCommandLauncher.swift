#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// The real ``CommandLauncher``: execve(2) for `exec` (``ProcessReplacement``), posix_spawn(3)
/// for `exec --keep-fresh` (``ChildProcess``), and the signals passed on to the child, kept by
/// ``ProcessSignals`` for the whole process.
public struct SystemCommandLauncher: CommandLauncher {
    public init() {}

    public func replace(with arguments: [String], environment: [String: String]) throws -> Never {
        try ProcessReplacement.exec(arguments, environment: environment)
    }

    public func start(_ arguments: [String], environment: [String: String]) throws -> any RunningCommand {
        do {
            return try ChildProcess.start(arguments, environment: environment)
        } catch let error as KCAuthError {
            let missing = access(arguments[0], X_OK) != 0 && !arguments[0].contains("/")
            throw CommandStartFailure(error, status: missing ? CommandStartFailure.notFound : CommandStartFailure.cannotRun)
        }
    }

    public func holdSignals(_ on: Bool) { ProcessSignals.hold(on) }

    public func takePendingSignal() -> Int32? {
        while let received = ProcessSignals.next() {
            // A signal from the terminal (Ctrl-C, Ctrl-\, a hang-up: sent by the kernel to the
            // whole process group) reached the command already: passing it on would make it two
            // (and Terraform, for one, takes a second interrupt as "stop now"). One sent to
            // kcauth alone by a process (kill, a supervisor) is passed on.
            if !received.byTerminal { return received.signal }
        }
        return nil
    }

    public func end(bySignal sig: Int32) { ProcessSignals.end(by: sig) }
}

extension ChildProcess: RunningCommand {
    public func send(_ signal: Int32) { kill(pid, signal) }
}
