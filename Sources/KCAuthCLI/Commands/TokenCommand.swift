import KCAuthCore

/// `kcauth token`: a token that is valid for at least `--min-valid` seconds, on stdout and
/// nothing else; refreshed first when needed.
enum TokenCommand: Command {
    static let minValid = OptionSpec("min-valid", value: "SECONDS", help: "Refresh if the token expires sooner than this", default: "30")

    static let spec = CommandSpec(
        "token", summary: "Print a valid access token for scripts",
        description: """
        Prints the access token of the profile on stdout and nothing else. If it expires within \
        --min-valid seconds, kcauth first refreshes it with the stored refresh token (one refresh \
        at a time across processes). A valid token needs no network, and usually not even the \
        keyring. If the session has ended at the provider, kcauth removes the stored tokens, \
        keeps the profile's settings, and exits with status 4.
        """,
        options: [CommandTable.profile, minValid, TokenOutput.option, TokenOutput.idToken],
        examples: [
            "curl -H \"$(kcauth token -o header)\" https://api.example.com/",
            "eval \"$(kcauth token -o env)\"",
            "kcauth token --id-token -o exec-credential   # kubectl exec plugin",
            "kcauth token -o curl | curl -K - https://api.example.com/",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try services.profile(command)
        let request = GetToken.Request(profile: profile, minValid: try seconds(command, minValid, default: 30),
                                       idToken: command.flag("id-token"))
        let token = try KubectlLogin.whenNeeded(command, services, profile: profile) {
            try services.context.getToken(profile: profile).run(request)
        }
        try print(token, command, services, profile: profile)
    }

    /// Shared with `refresh`.
    static func print(_ token: IssuedToken, _ command: ParsedCommand, _ services: Services, profile: String) throws {
        let idToken = command.flag("id-token")
        if idToken, token.idToken == nil {
            throw KCAuthError(.loginRequired, "the session of profile '\(profile)' has no ID token", hint: LoginHint.command(profile: profile))
        }
        if let notice = token.notice { services.console.err("note: \(notice)\n") }
        let format = command.value("output").flatMap(TokenOutput.init(rawValue:)) ?? .raw
        services.console.out(try format.render(token, idToken: idToken, profile: profile, now: services.clock.now(),
                                               exec: try KubectlLogin.execInfo(services).apiVersion))
    }

    static func seconds(_ command: ParsedCommand, _ option: OptionSpec, default value: Double) throws -> Double {
        guard let raw = command.value(option.long) else { return value }
        guard let n = Double(raw), n >= 0, n <= 86400 else {
            throw KCAuthError(.usage, "--\(option.long) takes a number of seconds from 0 to 86400, not '\(raw)'")
        }
        return n
    }
}
