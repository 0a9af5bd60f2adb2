import KCAuth
import KCAuthContract
import KCAuthCore
import KCAuthSystem

/// `kcauth exec -- CMD`: run a program with a fresh token in its environment.
enum ExecCommand: Command {
    static let spec = CommandSpec(
        "exec", summary: "Run a command with a fresh token in its environment",
        description: """
        Runs COMMAND with a token valid for at least --min-valid seconds in the environment \
        variable \(ExecVariable.defaultName), or in the variables --env names: --env NAME for the \
        access token, --env NAME=id for the ID token; give --env more than once for several. \
        kcauth becomes COMMAND (like `env` and `exec`): signals reach it directly, and its exit \
        status is kcauth's. As with `env`, a COMMAND that is not found exits with status 127, \
        one that cannot be run with 126. With no session kcauth exits with status 4 before \
        COMMAND starts. --env refuses variables that change how COMMAND runs (PATH, LD_*, \
        IFS, BASH_ENV and the like). \
        The token is in COMMAND's environment because you asked for it there: every process \
        COMMAND starts inherits it, and processes of your user can read it. \
        With --keep-fresh, kcauth instead stays COMMAND's parent and keeps the access token in a \
        0600 file whose path is in \(KeepFresh.variable) (a private runtime directory, or \
        --token-file PATH), rewritten atomically before the token expires for as long as COMMAND \
        runs and removed when it ends; signals sent to kcauth are passed on to COMMAND and its \
        exit status (or signal) is kcauth's.
        """,
        usage: "[flags] [--] COMMAND [ARG...]",
        options: [CommandTable.profile, env, TokenCommand.minValid, keepFresh, tokenFile],
        positionals: ["COMMAND", "ARG..."],
        examples: [
            "kcauth exec -- terraform apply",
            "kcauth exec --env GITLAB_TOKEN --env OIDC_ID_TOKEN=id -- ./deploy.sh",
            "kcauth exec --keep-fresh -- terraform apply",
        ])

    static let env = OptionSpec("env", value: "NAME[=id]", help: "Variable for the access token (NAME=id: the ID token); repeatable",
                                default: ExecVariable.defaultName)

    static let keepFresh = OptionSpec("keep-fresh", help: "Stay COMMAND's parent and keep the token fresh in a file ($\(KeepFresh.variable))")
    static let tokenFile = OptionSpec("token-file", value: "PATH", help: "The file --keep-fresh keeps the token in")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        guard !command.positionals.isEmpty else {
            throw KCAuthError(.usage, "exec needs a command to run", hint: "kcauth exec [flags] -- COMMAND [ARG...]")
        }
        if command.flag(keepFresh) { return try runKeepingFresh(command, services) }
        if command.value(tokenFile) != nil { throw KCAuthError(.usage, "--token-file needs --keep-fresh") }
        let minValid = try TokenCommand.seconds(command, TokenCommand.minValid, default: TokenDefaults.minValid)
        let specs = command.allValues(env)
        let variables = try (specs.isEmpty ? [ExecVariable.defaultName] : specs).map(ExecVariable.init(parsing:))
        var environment = services.environment
        // A forwarded session (`kcauth ssh`) answers from the laptop; nothing is resolved here.
        let profile = ForwardedSession.announced(services) ? nil : try services.resolve(command)
        for kind in ExecVariable.Value.allCases where variables.contains(where: { $0.value == kind }) {
            let (name, token) = try freshToken(command, profile: profile, minValid: minValid, idToken: kind == .id, services: services)
            guard let value = kind == .id ? token.idToken : token.accessToken else {
                throw KCAuthError(.loginRequired, "the session of profile '\(name)' has no ID token", remedy: .signIn(profile: name))
            }
            for variable in variables where variable.value == kind { environment[variable.name] = value }
        }
        do {
            try ProcessReplacement.exec(command.positionals, environment: environment)
        } catch let failure as CommandStartFailure {
            // 127 or 126, as `env` gives: not one of kcauth's own statuses, so reported here.
            services.console.err(ErrorPresenter.line(failure.error) + "\n")
            throw ReportedFailure(status: ExitStatus(code: failure.status, meaning: "the command could not be started"))
        }
    }

    /// `--keep-fresh`: the token in a file, renewed for as long as COMMAND runs (``KeepFresh``).
    static func runKeepingFresh(_ command: ParsedCommand, _ services: Services) throws {
        guard command.allValues(env).isEmpty else {
            throw KCAuthError(.usage, "--env cannot be used with --keep-fresh: a variable cannot be renewed",
                              hint: "read the token from the file named in $\(KeepFresh.variable)")
        }
        let minValid = try TokenCommand.seconds(command, TokenCommand.minValid, default: TokenDefaults.minValid)
        var path = command.value(tokenFile)
        if let given = path {
            try InputText.check(given, from: "--token-file")
            if !given.hasPrefix("/") { path = (services.context.adapters.workingDirectory ?? ".") + "/" + given }
        }
        let profile = ForwardedSession.announced(services) ? nil : try services.resolve(command)
        let status = try KeepFresh(command: command.positionals, environment: services.environment, minValid: minValid, tokenFile: path,
                                   fetch: { try freshToken(command, profile: profile, minValid: $0, idToken: false, services: services).1 },
                                   clock: services.context.clock, console: services.console).run()
        try KeepFresh.exit(like: status)
    }

    private static func freshToken(_ command: ParsedCommand, profile: ResolvedProfile?, minValid: Double, idToken: Bool,
                                   services: Services) throws -> (String, IssuedToken) {
        guard let profile else {
            let forwarded = try ForwardedSession.token(command, services, minValid: minValid, idToken: idToken)!
            return (forwarded.profile, forwarded.token)
        }
        return (profile.name, try services.context.getToken(profile).run(GetToken.Request(profile: profile.name, minValid: minValid, idToken: idToken)))
    }
}
