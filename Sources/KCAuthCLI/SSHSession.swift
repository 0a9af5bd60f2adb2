import Glibc
import KCAuthContract
import KCAuthCore
import KCAuthSystem

/// What `kcauth ssh` does with the system ssh. The remote side must find a socket in a directory
/// only its user can write, and the path of such a directory is known only once connected. So:
///
/// 1. a control connection (`ControlMaster`, authenticated once, on the user's terminal) runs
///    `mktemp -d` on the remote host: a fresh 0700 directory;
/// 2. the laptop's socket is forwarded into it through that connection (`ssh -O forward -R`);
/// 3. the user's session runs over the same connection with `LC_KCAUTH_FORWARD` naming the
///    remote socket (passed by stock Debian sshd: `AcceptEnv LANG LC_*`), while this process
///    answers on the laptop's socket (``ForwardAgent``);
/// 4. when the session's ssh ends, however it ends, the remote directory is removed through the
///    control connection, the connection is closed, and the laptop's socket and directory go.
struct SSHSession {
    let arguments: SSHArguments
    let agent: (Int32) -> ForwardAgent
    let directory: String
    let environment: [String: String]
    let console: any Console

    var socketPath: String { directory + "/agent.sock" }
    var controlPath: String { directory + "/control" }

    /// How long the control connection may take to sign in (a password typed by a person).
    static let connectSeconds = 600
    /// A control command (`-O forward`, the clean-up) that takes longer than this is stopped.
    static let controlSeconds = 20

    /// Runs the session; its exit status (ssh's).
    func run() throws -> Int32 {
        let listener = try ForwardSocket.listen(path: socketPath)
        defer { close(listener); unlink(socketPath) }
        let agent = self.agent(listener)

        // 1. The control connection and the remote directory.
        let setup = try ChildProcess.start(["ssh", "-o", "ControlMaster=yes", "-o", "ControlPath=" + controlPath,
                                            "-o", "ControlPersist=\(Self.controlSeconds)",
                                            // The master sends a session's variables, by its own SendEnv.
                                            "-o", "SendEnv=" + ForwardRule.variable]
                                           + arguments.connectionOptions
                                           + ["-T", arguments.destination, "mktemp -d -t kcauth-forward.XXXXXXXXXX"],
                                           environment: environment, captureOutput: true)
        let setupStatus = wait(setup, agent: nil, seconds: Self.connectSeconds)
        let output = setup.readOutput(limit: 4096, seconds: 5).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard setupStatus == 0 else {
            closeControl()
            console.err("kcauth ssh: could not connect to \(arguments.destination) (ssh exited with status \(setupStatus))\n")
            return setupStatus
        }
        defer { closeControl() }
        // The last line: a shell start-up file may print before mktemp does.
        let remoteDirectory = output.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).last.map(String.init) ?? ""
        guard Self.isSafeRemoteDirectory(remoteDirectory) else {
            console.err("kcauth ssh: the remote host gave no usable directory for the forward (does it have mktemp?)\n")
            return 255
        }
        let remoteSocket = remoteDirectory + "/agent.sock"
        defer { control(["-T", arguments.destination, "rm -rf -- '\(remoteDirectory)'"]) }

        // 2. The forward into it.
        guard control(["-O", "forward", "-R", remoteSocket + ":" + socketPath, arguments.destination]) == 0 else {
            console.err("kcauth ssh: the remote host refused to forward a socket "
                        + "(its sshd_config needs AllowStreamLocalForwarding yes, the default)\n")
            return 255
        }

        // 3. The user's session, over the control connection.
        var sessionEnvironment = environment
        sessionEnvironment[ForwardRule.variable] = remoteSocket
        let session = try ChildProcess.start(["ssh", "-o", "ControlPath=" + controlPath, "-o", "ControlMaster=no",
                                              "-o", "SendEnv=" + ForwardRule.variable]
                                             + arguments.options.flatMap { $0 } + [arguments.destination] + arguments.command,
                                             environment: sessionEnvironment)
        return wait(session, agent: agent, seconds: nil)
    }

    /// Waits for `child`, answering on the forward meanwhile; SIGTERM and SIGHUP sent to kcauth
    /// are passed on to it (kcauth blocks them so that it always cleans up), a Ctrl-C reaches
    /// ssh from the terminal. Past `seconds`, the child is stopped.
    func wait(_ child: ChildProcess, agent: ForwardAgent?, seconds: Int?) -> Int32 {
        let deadline = seconds.map { ForwardSocket.monotonic() + Double($0) }
        while true {
            if let status = child.poll() { return status }
            if let pending = Self.pendingSignal() { kill(child.pid, pending) }
            if let deadline, ForwardSocket.monotonic() > deadline { kill(child.pid, SIGTERM) }
            if let agent { agent.serveOne(milliseconds: 100) } else { usleep(50_000) }
        }
    }

    /// A control command over the control connection (never a new connection: BatchMode, and
    /// only while the control socket exists); its status.
    @discardableResult
    func control(_ arguments: [String], quiet: Bool = true) -> Int32 {
        guard access(controlPath, F_OK) == 0 else { return 255 }
        guard let child = try? ChildProcess.start(["ssh", "-o", "ControlPath=" + controlPath, "-o", "ControlMaster=no",
                                                   "-o", "BatchMode=yes"] + arguments, environment: environment,
                                                  quiet: quiet) else { return 255 }
        return wait(child, agent: nil, seconds: Self.controlSeconds)
    }

    /// Closes the control connection and waits (briefly) for the master to remove its socket,
    /// so that the forward's directory can go with it.
    func closeControl() {
        guard control(["-O", "exit", arguments.destination]) == 0 else { return }
        for _ in 0..<100 where access(controlPath, F_OK) == 0 { usleep(20_000) }
    }

    /// What `mktemp -d -t` prints: an absolute path of plain characters, nothing a shell or
    /// ssh's forwarding syntax would read differently.
    static func isSafeRemoteDirectory(_ path: String) -> Bool {
        path.hasPrefix("/") && path.contains("/kcauth-forward.") && path.count < 80
            && path.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2F || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
            && !path.contains("..")
    }

    /// The signals kcauth holds back while ssh runs.
    static let heldSignals: [Int32] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

    static func holdSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in heldSignals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// A held SIGTERM or SIGHUP, taken (to pass on); a held Ctrl-C is dropped: the terminal
    /// sent it to ssh too.
    static func pendingSignal() -> Int32? {
        var set = sigset_t()
        sigemptyset(&set)
        for s in heldSignals { sigaddset(&set, s) }
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        let taken = sigtimedwait(&set, nil, &zero)
        return taken == SIGTERM || taken == SIGHUP ? taken : nil
    }
}
