#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// Runs a `command:` client assertion source's program (``AssertionCommandRunner``): found on
/// the environment's `PATH`, started without a shell, with stdin on /dev/null (kcauth's own
/// stdin may be a git or docker request), stderr shared with kcauth (its words reach the
/// person), stdout captured. A program that is still running at the deadline, or prints more
/// than the limit, is killed and reaped.
public struct SystemAssertionCommands: AssertionCommandRunner {
    private let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public func run(_ argv: [String], environment extra: [String: String], seconds: Double, limit: Int) throws -> AssertionCommandOutcome {
        precondition(!argv.isEmpty)
        guard let program = BrowserOpener.resolve(argv[0], path: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw KCAuthError(.configuration, "cannot start the client assertion command \(argv[0]): not found on PATH")
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw KCAuthError(.internal, "cannot create a pipe for the client assertion command") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSignals.reset(&attributes)
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.merging(extra) { _, added in added }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArgv + cEnv { free(p) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, program, &actions, &attributes, cArgv, cEnv)
        close(fds[1])
        guard result == 0 else {
            close(fds[0])
            throw KCAuthError(.configuration, "cannot start the client assertion command \(argv[0]): \(String(cString: strerror(result)))")
        }
        let deadline = ForwardSocket.monotonic() + seconds
        let output = Self.read(fds[0], limit: limit, deadline: deadline)
        close(fds[0])
        switch output {
        case .timedOut:
            Self.kill(pid)
            return .timedOut
        case .tooLarge:
            Self.kill(pid)
            return .outputTooLarge
        case .bytes(let bytes):
            // stdout is closed; the program may still be finishing.
            guard let status = Self.wait(pid, until: deadline) else {
                Self.kill(pid)
                return .timedOut
            }
            return .exited(status: status, output: bytes)
        }
    }

    private enum Output { case bytes([UInt8]), timedOut, tooLarge }

    /// Everything on `fd` until it is closed, at most `limit` bytes, before `deadline`.
    private static func read(_ fd: Int32, limit: Int, deadline: Double) -> Output {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - ForwardSocket.monotonic()
            guard left > 0 else { return .timedOut }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(left, 3600) * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { if ready == 0 { continue } else { return .bytes(bytes) } }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return .bytes(bytes) }
            bytes += buffer[..<n]
            if bytes.count > limit { return .tooLarge }
        }
    }

    /// The exit status as a shell gives it, or nil if it still runs at `deadline`.
    private static func wait(_ pid: pid_t, until deadline: Double) -> Int32? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return ChildProcess.shellStatus(status) }
            if r < 0, errno != EINTR { return 255 }
            guard ForwardSocket.monotonic() < deadline else { return nil }
            usleep(10_000)
        }
    }

    private static func kill(_ pid: pid_t) {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}
