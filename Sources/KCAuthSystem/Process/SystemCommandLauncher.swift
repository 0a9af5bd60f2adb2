#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// The real ``CommandLauncher``: execve(2) for `exec` (``ProcessReplacement``), posix_spawn(3)
/// for `exec --keep-fresh` (``ChildProcess``), and the signal mask that holds back the signals
/// passed on to the child.
public struct SystemCommandLauncher: CommandLauncher {
    /// Signals passed on to the command. A terminal's Ctrl-C reaches the command itself (one
    /// process group); kcauth only holds it back from itself.
    public static let passedOn: [Int32] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]

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

    public func holdSignals(_ on: Bool) {
        var set = Self.passedOnSet()
        pthread_sigmask(on ? SIG_BLOCK : SIG_UNBLOCK, &set, nil)
    }

    public func takePendingSignal() -> Int32? {
        var set = Self.passedOnSet()
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        var info = siginfo_t()
        let taken = sigtimedwait(&set, &info, &zero)
        // A signal from the terminal (Ctrl-C, Ctrl-\\, a hang-up: sent by the kernel to the whole
        // process group) reached the command already: passing it on would make it two (and
        // Terraform, for one, takes a second interrupt as "stop now"). One sent to kcauth alone
        // by a process (kill, a supervisor) is passed on.
        guard taken > 0, info.si_code <= 0 else { return nil }
        return taken
    }

    public func end(bySignal sig: Int32) {
        signal(sig, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, sig)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(sig)
    }

    private static func passedOnSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in passedOn { sigaddset(&set, s) }
        return set
    }
}

extension ChildProcess: RunningCommand {
    public func send(_ signal: Int32) { kill(pid, signal) }
}
