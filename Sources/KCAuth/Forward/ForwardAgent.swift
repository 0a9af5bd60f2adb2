import KCAuthCore

/// `forward-agent`: the laptop's side of `ssh` on its own, for plain ssh (`RemoteForward` in
/// ssh_config). Listens on a fresh socket (or the one asked for), lists itself for `status`, and
/// answers (``ForwardAnswers``, several clients at a time) until a stop signal; then removes its
/// socket, record and directory. Forwards killed earlier (SIGKILL) lose their directories first.
public struct ForwardAgent: Sendable {
    /// The destination its record and log lines name.
    public static let destination = "plain ssh"

    let context: KCAuthContext
    let host: any ForwardHost

    public init(context: KCAuthContext) {
        self.context = context
        host = context.adapters.forwardHost()
    }

    /// Where a person asked the socket to be, made absolute (against the working directory) and
    /// checked: absent, in a directory of the user's closed to others. Throws a
    /// ``SocketPathProblem`` when it may not be used there.
    public func socketPath(_ given: String) throws -> String {
        var path = given
        if !path.hasPrefix("/") {
            guard let directory = context.adapters.workingDirectory else {
                throw KCAuthError(.configuration, "cannot read the current directory")
            }
            path = directory + "/" + path
        }
        if let problem = host.socketPathProblem(path) { throw problem }
        return path
    }

    /// `socket`: where to listen (from ``socketPath(_:)``); nil: in the forward's own directory.
    /// `listening`: told the path once it listens.
    public func run(profiles: [String], scope: String?, socket: String?, listening: (String) -> Void) throws {
        host.holdStopSignals()
        host.removeOrphans()
        let directory = try host.makeDirectory()
        defer { host.remove(directory: directory, files: [ForwardRecord.fileName, "agent.sock"]) }
        let path = socket ?? directory + "/agent.sock"
        let listener = try host.listen(path: path)
        defer { listener.close() }
        host.write(ForwardRecord(pid: host.processID, destination: Self.destination, profiles: profiles, scope: scope,
                                 started: context.clock.instant.rfc3339), in: directory)
        listening(path)
        let answers = ForwardAnswers(context: context, host: host, profiles: profiles, scope: scope, destination: Self.destination)
        while !host.stopRequested() { listener.serve(milliseconds: 100, answer: { answers.answer($0) }) }
    }
}
