import Glibc
import KCAuthContract
import KCAuthCore
import KCAuthSystem

/// `kcauth ssh [flags] [SSH-OPTIONS] DESTINATION [COMMAND...]`: the system ssh, with this
/// laptop's session lent to the remote host for as long as the connection lasts (access tokens
/// only, for the named profiles). How: ``SSHSession``; what answers: ``ForwardAgent``.
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

        let directory = try PrivateRunDirectory.create(prefix: ForwardRecord.directoryPrefix)
        let record = ForwardRecord(pid: getpid(), destination: arguments.destination, profiles: profiles, scope: scope,
                                   started: services.context.clock.instant.rfc3339)
        PrivateRunDirectory.write(directory + "/" + ForwardRecord.fileName, record.text)
        defer { PrivateRunDirectory.remove(directory, files: [ForwardRecord.fileName, "agent.sock", "control"]) }
        SSHSession.holdSignals()
        let log = ForwardLog(environment: services.environment)
        let session = SSHSession(arguments: arguments,
                                 agent: { ForwardAgent(listener: $0, profiles: profiles, scope: scope, destination: arguments.destination,
                                                       services: services, log: log) },
                                 directory: directory, environment: withoutForward(services.environment), console: services.console)
        let status = try session.run()
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

    /// The laptop's own environment for ssh: a forward this kcauth was itself reached through
    /// (a second hop) is not passed on as if it were this connection's.
    static func withoutForward(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        environment[ForwardRule.variable] = nil
        return environment
    }
}
