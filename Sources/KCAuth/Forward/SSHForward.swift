import KCAuthContract
import KCAuthCore

/// `ssh`: the system ssh, with this laptop's session lent to the remote host for as long as the
/// connection lasts. The remote side must find a socket in a directory only its user can write,
/// and the path of such a directory is known only once connected. So:
///
/// 1. a control connection (`ControlMaster`, authenticated once, on the user's terminal) removes
///    what earlier connections left there and runs `mktemp -d` on the remote host: a fresh 0700
///    directory (``RemoteForwardCommands``);
/// 2. the laptop's socket is forwarded into it through that connection (`ssh -O forward -R`);
/// 3. the user's session runs over the same connection with `LC_KCAUTH_FORWARD` naming the
///    remote socket (passed by stock Debian sshd: `AcceptEnv LANG LC_*`), while this process
///    answers on the laptop's socket (``ForwardAnswers``);
/// 4. when the session's ssh ends, however it ends, the remote directory is removed (through the
///    control connection while it lasts, else by one new connection that asks nothing, given
///    ``cleanUpSeconds``), the connection is closed, and the laptop's socket and directory go.
public struct SSHForward: Sendable {
    public struct Request: Sendable, Equatable {
        /// ssh's options, each with its value's word when separate.
        public var options: [[String]]
        /// The options the control connection gets (no forwardings: the session sets them up).
        public var connectionOptions: [String]
        public var destination: String
        public var command: [String]
        /// The profiles lent (the first answers a request that names none).
        public var profiles: [String]
        /// A narrower scope for the tokens lent.
        public var scope: String?

        public init(options: [[String]], connectionOptions: [String], destination: String, command: [String],
                    profiles: [String], scope: String?) {
            self.options = options
            self.connectionOptions = connectionOptions
            self.destination = destination
            self.command = command
            self.profiles = profiles
            self.scope = scope
        }
    }

    public enum Outcome: Sendable, Equatable {
        /// The session ran; ssh's exit status.
        case ended(status: Int32)
        /// The control connection failed; ssh's exit status.
        case couldNotConnect(status: Int32)
        /// The remote host printed no usable directory (no mktemp?).
        case noRemoteDirectory
        /// The remote sshd refused the socket forward (AllowStreamLocalForwarding).
        case forwardRefused
    }

    /// How long the control connection may take to sign in (a password typed by a person).
    public static let connectSeconds = 600
    /// A control command (`-O forward`) that takes longer than this is stopped; also how long
    /// the control connection outlives its last session (ControlPersist: a killed kcauth
    /// cannot close it).
    public static let controlSeconds = 20
    /// Each step of the clean-up once the connection has dropped (the remote directory's removal
    /// over a new connection, closing the control connection) is stopped after this long: a
    /// dropped connection must not keep kcauth and its sockets.
    public static let cleanUpSeconds = 2

    let context: KCAuthContext
    let host: any ForwardHost
    let ssh: any SSHClient

    public init(context: KCAuthContext) {
        self.context = context
        host = context.adapters.forwardHost()
        ssh = context.adapters.ssh()
    }

    public func run(_ request: Request) throws -> Outcome {
        host.holdStopSignals()  // before the directory exists: a signal then must not leave it behind
        host.removeOrphans()
        let directory = try host.makeDirectory()
        let record = ForwardRecord(pid: host.processID, destination: request.destination, profiles: request.profiles,
                                   scope: request.scope, started: context.clock.instant.rfc3339)
        host.write(record, in: directory)
        defer { host.remove(directory: directory, files: [ForwardRecord.fileName, "agent.sock", "control"]) }
        let answers = ForwardAnswers(context: context, host: host, profiles: request.profiles, scope: request.scope,
                                     destination: request.destination)
        return try Session(request: request, ssh: ssh, directory: directory,
                           environment: Self.withoutForward(context.environment)).run(host: host, answers: answers)
    }

    /// The laptop's own environment for ssh: a forward this kcauth was itself reached through
    /// (a second hop) is not passed on as if it were this connection's.
    static func withoutForward(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        environment[ForwardRule.variable] = nil
        return environment
    }

    /// What `mktemp -d -t` prints (``RemoteForwardCommands/isSafeDirectory(_:)``).
    public static func isSafeRemoteDirectory(_ path: String) -> Bool { RemoteForwardCommands.isSafeDirectory(path) }

    /// One connection's steps, in the forward's directory.
    struct Session {
        let request: Request
        let ssh: any SSHClient
        let directory: String
        let environment: [String: String]

        var socketPath: String { directory + "/agent.sock" }
        var controlPath: String { directory + "/control" }

        func run(host: any ForwardHost, answers: ForwardAnswers) throws -> Outcome {
            let listener = try host.listen(path: socketPath)
            defer { listener.close() }

            // 1. The control connection and the remote directory.
            let setup = try ssh.run(["-o", "ControlMaster=yes", "-o", "ControlPath=" + controlPath,
                                     "-o", "ControlPersist=\(SSHForward.controlSeconds)",
                                     // The master sends a session's variables, by its own SendEnv.
                                     "-o", "SendEnv=" + ForwardRule.variable]
                                    + request.connectionOptions
                                    + ["-T", request.destination, RemoteForwardCommands.setUp],
                                    environment: environment, captureOutput: true, quiet: false,
                                    seconds: SSHForward.connectSeconds, whileWaiting: nil)
            guard setup.status == 0 else {
                closeControl()
                return .couldNotConnect(status: setup.status)
            }
            defer { closeControl() }
            // The last line: a shell start-up file may print before mktemp does.
            let output = String(decoding: setup.output, as: UTF8.self)
            let remoteDirectory = output.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).last.map(String.init) ?? ""
            guard SSHForward.isSafeRemoteDirectory(remoteDirectory) else { return .noRemoteDirectory }
            let remoteSocket = remoteDirectory + "/agent.sock"
            defer { removeRemote(remoteDirectory) }

            // 2. The forward into it.
            guard control(["-O", "forward", "-R", remoteSocket + ":" + socketPath, request.destination]) == 0 else {
                return .forwardRefused
            }

            // 3. The user's session, over the control connection.
            var sessionEnvironment = environment
            sessionEnvironment[ForwardRule.variable] = remoteSocket
            let session = try ssh.run(["-o", "ControlPath=" + controlPath, "-o", "ControlMaster=no", "-o", "SendEnv=" + ForwardRule.variable]
                                      + request.options.flatMap { $0 } + [request.destination] + request.command,
                                      environment: sessionEnvironment, captureOutput: false, quiet: false, seconds: nil,
                                      whileWaiting: { listener.serve(milliseconds: 100, answer: { answers.answer($0) }) })
            return .ended(status: session.status)
        }

        /// A control command over the control connection (`-O`: never a new connection, and only
        /// while the control socket exists), stopped after `seconds`; its status.
        @discardableResult
        func control(_ arguments: [String], seconds: Int = SSHForward.controlSeconds) -> Int32 {
            guard ssh.exists(controlPath) else { return 255 }
            let run = try? ssh.run(["-o", "ControlPath=" + controlPath, "-o", "ControlMaster=no", "-o", "BatchMode=yes"] + arguments,
                                   environment: environment, captureOutput: false, quiet: true, seconds: seconds, whileWaiting: nil)
            return run?.status ?? 255
        }

        /// Removes the remote directory, once: over the control connection while it lasts (given
        /// ``SSHForward/controlSeconds``), else — the connection dropped — by the new connection
        /// ssh falls back to, with the user's options, which asks nothing (BatchMode) and is
        /// given ``SSHForward/cleanUpSeconds``. What it cannot remove, the next `kcauth ssh` to
        /// the host, or the remote kcauth that finds it dead, does.
        func removeRemote(_ directory: String) {
            let lasts = control(["-O", "check", request.destination], seconds: SSHForward.cleanUpSeconds) == 0
            _ = try? ssh.run(["-o", "ControlPath=" + controlPath, "-o", "ControlMaster=no", "-o", "BatchMode=yes"]
                             + request.connectionOptions + ["-T", request.destination, RemoteForwardCommands.removal(directory)],
                             environment: environment, captureOutput: false, quiet: true,
                             seconds: lasts ? SSHForward.controlSeconds : SSHForward.cleanUpSeconds, whileWaiting: nil)
        }

        /// Closes the control connection and waits (briefly) for the master to remove its socket,
        /// so that the forward's directory can go with it.
        func closeControl() {
            guard control(["-O", "exit", request.destination], seconds: SSHForward.cleanUpSeconds) == 0 else { return }
            ssh.waitUntilGone(controlPath, milliseconds: 1_000)
        }
    }
}
