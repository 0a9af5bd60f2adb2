import KCAuth
import KCAuthContract
import KCAuthCore

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
        0600 file whose path is in \(KeepFresh.variable) (in a private directory on memory-backed \
        storage: the runtime directory, else /dev/shm; or --token-file PATH, a path where nothing \
        is yet, made absolute from the current directory), rewritten atomically before the token \
        expires for as long as COMMAND runs and removed when it ends; signals sent to kcauth are \
        passed on to COMMAND and its exit status (or signal) is kcauth's.
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
    static let tokenFile = OptionSpec("token-file", value: "PATH",
                                      help: "The file --keep-fresh keeps the token in (a new one: nothing may be there)")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        guard !command.positionals.isEmpty else {
            throw KCAuthError(.usage, "exec needs a command to run", hint: "kcauth exec [flags] -- COMMAND [ARG...]")
        }
        if command.flag(keepFresh) { return try runKeepingFresh(command, services) }
        if command.value(tokenFile) != nil { throw KCAuthError(.usage, "--token-file needs --keep-fresh") }
        let minValid = try TokenCommand.seconds(command, TokenCommand.minValid, default: TokenDefaults.minValid)
        let specs = command.allValues(env)
        let variables = try (specs.isEmpty ? [ExecVariable.defaultName] : specs).map(variable(parsing:))
        do {
            try services.context.exec(try tokens(command, services)).run(command.positionals, variables: variables, minValid: minValid)
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
            // Made absolute before COMMAND starts: COMMAND may change directory, and kcauth
            // rewrites and removes the file by this path.
            if !given.hasPrefix("/") {
                guard let directory = services.context.adapters.workingDirectory else {
                    throw KCAuthError(.usage, "--token-file \(Sanitize.oneLine(given, limit: 200)): the current directory cannot be read",
                                      hint: "give an absolute path")
                }
                path = directory + "/" + given
            }
        }
        let keepFresh = services.context.keepFresh(try tokens(command, services))
        let status: Int32
        do {
            status = try keepFresh.run(command.positionals, minValid: minValid, tokenFile: path) { event in
                switch event {
                case .renewalFailed(let path, let error):
                    services.console.err("kcauth: could not renew the token in \(path): \(MessageWords.message(error)); trying again\n")
                }
            }
        } catch let failure as CommandStartFailure {
            services.console.err("error: cannot run '\(Sanitize.oneLine(command.positionals[0], limit: 200))'\n")
            throw ReportedFailure(status: ExitStatus(code: failure.status, meaning: "the command could not be started"))
        }
        let code = keepFresh.end(like: status)
        if code != 0 { throw ReportedFailure(status: ExitStatus(code: code, meaning: "the command's exit status")) }
    }

    /// The profile's tokens, or (a forwarded session of `kcauth ssh`) the laptop's: then nothing
    /// is resolved here.
    private static func tokens(_ command: ParsedCommand, _ services: Services) throws -> ExecTokens {
        try services.context.execTokens(named: ForwardedSession.named(command, services), resolve: { try services.resolve(command) })
    }

    /// One `--env`: `NAME` (the access token) or `NAME=id` (the ID token).
    static func variable(parsing spec: String) throws -> ExecVariable {
        let parts = spec.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        // POSIX portable names: what every shell and `env` can pass on.
        guard ExecVariableRule.isPortableName(name) else {
            throw KCAuthError(.usage, "--env takes a variable name (letters, digits, '_'), not '\(Sanitize.oneLine(spec, limit: 80))'")
        }
        // Variables the dynamic loader, the C library or a shell act on before COMMAND's own
        // code runs: a token there would replace the command search path or name a library.
        guard !ExecVariableRule.changesHowTheChildRuns(name) else {
            throw KCAuthError(.usage, "--env \(name): kcauth does not put a token in a variable that changes how COMMAND runs",
                              hint: "name another variable, such as --env \(ExecVariable.defaultName)")
        }
        guard parts.count == 2 else { return ExecVariable(name: name, value: .access) }
        guard let value = ExecVariable.Value(rawValue: String(parts[1])) else {
            throw KCAuthError(.usage, "--env \(name)=\(Sanitize.oneLine(String(parts[1]), limit: 40)): use \(name)=access or \(name)=id")
        }
        return ExecVariable(name: name, value: value)
    }
}
