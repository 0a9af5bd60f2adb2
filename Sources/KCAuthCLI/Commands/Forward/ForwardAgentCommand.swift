import KCAuthContract
import KCAuthCore
import KCAuth

/// `kcauth forward-agent [--profile NAME]... [--scope SCOPES] [--socket PATH]`: the laptop's side
/// of `kcauth ssh` on its own, for plain ssh (`RemoteForward` in ssh_config). Prints the socket's
/// path, lists itself in `kcauth status`, and answers (``ForwardAgent``) until SIGTERM, SIGINT
/// or SIGHUP; then removes its socket, its record and its directory.
enum ForwardAgentCommand: Command {
    static let spec = CommandSpec(
        "forward-agent", summary: "Lend this session's tokens to plain ssh on a socket",
        description: """
        The laptop side of `kcauth ssh` on its own, for plain ssh: creates a fresh socket, prints \
        its path on stdout, and answers on it until SIGTERM, SIGINT or SIGHUP, then removes it. \
        Forward it with ssh_config's RemoteForward to a socket in a 0700 directory of yours on the \
        remote host, and send that path there as LC_KCAUTH_FORWARD (SetEnv). The rules are those \
        of `kcauth ssh`: only the profiles named with --profile (default: the profile kcauth would \
        use), only access tokens and ID tokens, only to processes of this user (the ssh that \
        forwards it), each answer logged in $XDG_STATE_HOME/kcauth/forward.log with the \
        destination "plain ssh"; `kcauth status` lists it. Clients are served side by side, each \
        given 2 s to send its request. --socket puts the socket at PATH, which must not exist, \
        in a directory that is yours and 0700 (default: a fresh private directory under \
        /run/user/UID/kcauth-locks, or ~/.local/state/kcauth/locks where /run/user/UID is not \
        yours). Every host the socket is forwarded to, and its root, can use it while forwarded.
        """,
        usage: "[--profile NAME]... [--scope SCOPES] [--socket PATH]",
        options: [SSHCommand.forwardProfile, SSHCommand.scope, socket],
        examples: [
            "kcauth forward-agent --profile work &",
            "kcauth forward-agent --socket ~/.ssh/kcauth-agent.sock",
        ])

    static let socket = OptionSpec("socket", value: "PATH", help: "Where to create the socket (its directory: yours, 0700)")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profiles = try SSHCommand.profiles(command, services)
        let scope = command.value(SSHCommand.scope)
        if let scope { try InputText.check(scope, from: "--scope") }
        let chosen = try command.value(socket).map { try checkedSocketPath($0, services) }

        try services.context.forwardAgent().run(profiles: profiles, scope: scope, socket: chosen) { services.console.out($0 + "\n") }
    }

    /// `--socket`'s path, made absolute: it must not exist, and its directory must be this
    /// user's and closed to others (0700), so that nobody else can reach or replace the socket.
    static func checkedSocketPath(_ given: String, _ services: Services) throws -> String {
        try InputText.check(given, from: "--socket")
        do {
            return try services.context.forwardAgent().socketPath(given)
        } catch let problem as SocketPathProblem {
            switch problem {
            case .notADirectory(let directory): throw KCAuthError(.usage, "--socket: \(directory) is not a directory")
            case .notPrivate(let directory): throw KCAuthError(.usage, "--socket: \(directory) must be yours and closed to others (chmod 700)")
            case .exists(let path): throw KCAuthError(.usage, "--socket: \(path) already exists")
            }
        }
    }
}
