import KCAuth
import KCAuthContract
import KCAuthCore

/// `kcauth ssh [flags] [SSH-OPTIONS] DESTINATION [COMMAND...]`: the system ssh, with this
/// laptop's session lent to the remote host for as long as the connection lasts (access tokens
/// only, for the named profiles). How: ``SSHForward``; what answers: ``ForwardAnswers``.
enum SSHCommand: Command {
    static let spec: CommandSpec = {
        var spec = CommandSpec(
            "ssh", summary: "Connect with ssh and lend the remote host this session's tokens",
            description: """
            Runs the system ssh with SSH-OPTIONS, DESTINATION and COMMAND as given, and forwards a \
            fresh socket to the remote host for the connection's lifetime: there, `kcauth token`, \
            `kcauth exec`, the git and docker helpers and kubectl's exec plugin get access tokens \
            from this machine, and store nothing. The remote host needs kcauth installed and a \
            stock sshd (AcceptEnv LC_*, AllowStreamLocalForwarding, mktemp). Only the profiles \
            named with --profile are served (default: the profile kcauth would use), only with \
            access tokens and ID tokens: never a refresh token or a client credential. --scope \
            narrows what the remote host receives (the session here keeps its scope). Each answer \
            is logged in $XDG_STATE_HOME/kcauth/forward.log, and `kcauth status` lists live \
            forwards. When the session here needs a sign-in, the remote command exits with status \
            4 and says so; sign in here and go on. kcauth's own flags come before ssh's; ssh's -M, \
            -S, -O, -f, -N and -W are refused. The exit status is ssh's. The remote host's root \
            can use the forwarded socket while the connection lasts.
            """,
            usage: "[flags] [SSH-OPTIONS] DESTINATION [COMMAND...]",
            options: [forwardProfile, scope],
            positionals: ["DESTINATION", "COMMAND..."],
            examples: [
                "kcauth ssh build.example.com",
                "kcauth ssh --profile work --profile ops -p 2222 admin@host",
                "kcauth ssh --scope openid host ./fetch-data",
            ])
        spec.shortOptionsStartCommandLine = true
        return spec
    }()

    static let forwardProfile = OptionSpec("profile", value: "NAME", help: "Profile to lend the remote host; repeatable",
                                           default: "default", environment: "KCAUTH_PROFILE", completes: .profiles)
    static let scope = OptionSpec("scope", value: "SCOPES", help: "Narrower scope for the tokens the remote host gets")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let arguments = try SSHArguments(command.positionals)
        let profiles = try profiles(command, services)
        let scope = command.value(scope)
        if let scope { try InputText.check(scope, from: "--scope") }

        let outcome = try services.context.sshForward().run(SSHForward.Request(
            options: arguments.options, connectionOptions: arguments.connectionOptions, destination: arguments.destination,
            command: arguments.command, profiles: profiles, scope: scope))
        let status: Int32
        switch outcome {
        case .ended(let code):
            status = code
        case .couldNotConnect(let code):
            services.console.err("kcauth ssh: could not connect to \(arguments.destination) (ssh exited with status \(code))\n")
            status = code
        case .noRemoteDirectory:
            services.console.err("kcauth ssh: the remote host gave no usable directory for the forward (does it have mktemp?)\n")
            status = 255
        case .forwardRefused:
            services.console.err("kcauth ssh: the remote host refused to forward a socket "
                                 + "(its sshd_config needs AllowStreamLocalForwarding yes, the default)\n")
            status = 255
        }
        if status != 0 { throw ReportedFailure(status: ExitStatus(code: status, meaning: "ssh's exit status")) }
    }

    /// The profiles to lend (--profile, repeatable; default: the profile kcauth would use).
    static func profiles(_ command: ParsedCommand, _ services: Services) throws -> [String] {
        let named = command.allValues(forwardProfile)
        var profiles: [String] = []
        for name in named.isEmpty ? [try services.resolve(command).name] : named {
            guard ProfileName.isValid(name) else { throw KCAuthError(.usage, "invalid profile name '\(Sanitize.oneLine(name, limit: 80))'") }
            if !profiles.contains(name) { profiles.append(name) }
        }
        return profiles
    }
}
