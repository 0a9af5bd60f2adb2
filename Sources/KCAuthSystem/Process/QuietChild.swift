#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// A short-lived helper program (`gdbus`), started with its stdio on /dev/null: kcauth's stdout
/// is data, and a caller reading kcauth's pipes (kubectl, git) waits for every writer to close them.
enum QuietChild {
    static func spawnQuiet(_ argv: [String], environment: [String: String]) throws -> pid_t {
        guard let program = BrowserOpener.resolve(argv[0], path: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw KCAuthError(.configuration, "cannot start \(argv[0])", cause: "not found on PATH")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnSignals.reset(&attributes)
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let result = withCStrings(argv) { cArgv in
            withCStrings(envp) { cEnvp in posix_spawn(&pid, program, &actions, &attributes, cArgv, cEnvp) }
        }
        guard result == 0 else { throw KCAuthError(.configuration, "cannot start \(argv[0])", cause: String(cString: strerror(result))) }
        return pid
    }

    /// Waits for the child at most `seconds`; a child still running then is left to finish alone.
    static func reap(_ pid: pid_t, within seconds: Double) {
        var waited = 0.0
        var status: Int32 = 0
        while waited < seconds {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno != EINTR) { return }
            usleep(10_000)
            waited += 0.01
        }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies + [nil])
    }
}
