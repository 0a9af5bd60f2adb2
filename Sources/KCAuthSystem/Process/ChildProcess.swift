import Glibc
import KCAuthCore

/// A program kcauth starts and waits for (`kcauth ssh` runs the system `ssh`), on the terminal
/// kcauth has: stdin and stderr are shared, stdout too unless it is captured. Never a shell: the
/// arguments are the user's and stay data.
public struct ChildProcess: Sendable {
    public let pid: pid_t
    /// The read end of the child's stdout, when captured.
    public let output: Int32?

    /// Starts `argv` (found on `PATH` of `environment`) with that environment; `quiet`: its stderr
    /// goes nowhere (a control command's chatter that kcauth reports in its own words).
    public static func start(_ argv: [String], environment: [String: String], captureOutput: Bool = false,
                             quiet: Bool = false) throws -> ChildProcess {
        precondition(!argv.isEmpty)
        var pipeFDs: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&pipeFDs) == 0 else { throw KCAuthError(.internal, "cannot create a pipe") }
            for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if captureOutput { posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], STDOUT_FILENO) }
        if quiet { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signals whatever kcauth ignores while it waits.
        SpawnSignals.reset(&attributes)
        var pid = pid_t()
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArgv + cEnv { free(p) } }
        let result = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgv, cEnv)
        if captureOutput { close(pipeFDs[1]) }
        guard result == 0 else {
            if captureOutput { close(pipeFDs[0]) }
            throw KCAuthError(.configuration, "cannot start \(argv[0])", cause: String(cString: strerror(result)))
        }
        return ChildProcess(pid: pid, output: captureOutput ? pipeFDs[0] : nil)
    }

    /// The exit status as a shell gives it (128+N for signal N), or nil while it runs.
    public func poll() -> Int32? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == 0 { return nil }
            if r < 0 { return errno == EINTR ? nil : 255 }
            return Self.shellStatus(status)
        }
    }

    /// Waits for the end; the exit status as a shell gives it.
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 255 }
        }
        return Self.shellStatus(status)
    }

    /// Everything the child writes on stdout until it closes it, up to `limit` bytes, within
    /// `seconds`; nil past the deadline.
    public func readOutput(limit: Int, seconds: Int) -> [UInt8]? {
        guard let fd = output else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ForwardSocket.monotonic() + Double(seconds)
        while bytes.count <= limit {
            let left = deadline - ForwardSocket.monotonic()
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = Glibc.poll(&p, 1, Int32(left * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready == 1 else { return nil }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return bytes }
            bytes += buffer[..<n]
        }
        return bytes
    }

    static func shellStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
