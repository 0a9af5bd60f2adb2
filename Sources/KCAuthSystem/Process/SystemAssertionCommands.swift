#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// Runs a `command:` client assertion source's program (``AssertionCommandRunner``): found on
/// the environment's `PATH`, started without a shell, with stdin on /dev/null (kcauth's own
/// stdin may be a git or docker request). Its stdout is captured; its stderr goes through a pipe
/// of kcauth's own and is copied to kcauth's stderr as it comes, so that the person sees it while
/// no process the program leaves behind holds kcauth's stderr open (a caller reading kcauth's
/// pipes, git or kubectl, waits for every writer to close them). A program still running at the
/// deadline, or printing more than the limit, is killed and reaped.
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
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard pipe(&out) == 0 else { throw KCAuthError(.internal, "cannot create a pipe for the client assertion command") }
        guard pipe(&err) == 0 else {
            close(out[0]); close(out[1])
            throw KCAuthError(.internal, "cannot create a pipe for the client assertion command")
        }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSignals.reset(&attributes)
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.merging(extra) { _, added in added }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArgv + cEnv { free(p) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, program, &actions, &attributes, cArgv, cEnv)
        close(out[1])
        close(err[1])
        defer { close(out[0]); close(err[0]) }
        guard result == 0 else {
            throw KCAuthError(.configuration, "cannot start the client assertion command \(argv[0]): \(String(cString: strerror(result)))")
        }
        let deadline = ForwardSocket.monotonic() + seconds
        switch Self.collect(pid, stdout: out[0], stderr: err[0], limit: limit, deadline: deadline) {
        case .timedOut:
            Self.kill(pid)
            return .timedOut
        case .tooLarge:
            Self.kill(pid)
            return .outputTooLarge
        case .exited(let status, let bytes):
            return .exited(status: status, output: bytes)
        case .closed(let bytes):
            // Both pipes are closed; the program may still be finishing.
            guard let status = Self.wait(pid, until: deadline) else {
                Self.kill(pid)
                return .timedOut
            }
            return .exited(status: status, output: bytes)
        }
    }

    private enum Output { case exited(Int32, [UInt8]), closed([UInt8]), timedOut, tooLarge }

    /// Everything on `stdout` (at most `limit` bytes), and `stderr` copied to kcauth's, until
    /// both are closed or the program has exited and left nothing more to read (something it
    /// started in the background may keep them open), before `deadline`.
    private static func collect(_ pid: pid_t, stdout: Int32, stderr: Int32, limit: Int, deadline: Double) -> Output {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var open = [stdout, stderr]
        var exited: Int32?
        while !open.isEmpty {
            let left = deadline - ForwardSocket.monotonic()
            guard left > 0 else { return .timedOut }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            // Short waits: whether the program has exited is asked between them.
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left, 0.05) * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 {
                if let exited { return .exited(exited, bytes) }
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { exited = ChildProcess.shellStatus(status) }
                continue
            }
            for p in fds where p.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(p.fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    open.removeAll { $0 == p.fd }
                } else if p.fd == stdout {
                    bytes += buffer[..<n]
                    if bytes.count > limit { return .tooLarge }
                } else {
                    // Its words, as they come; a closed stderr of kcauth's loses them, nothing else.
                    _ = buffer.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, n) }
                }
            }
        }
        if let exited { return .exited(exited, bytes) }
        return .closed(bytes)
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
