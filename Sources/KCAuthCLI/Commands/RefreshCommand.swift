import KCAuth
import KCAuthCore

/// `kcauth refresh`: refresh now, even if the access token is still valid.
enum RefreshCommand: Command {
    static let spec = CommandSpec(
        "refresh", summary: "Refresh the tokens now and print the new access token",
        description: """
        Uses the stored refresh token right away (under the same cross-process lock as `token`) \
        and stores the result. --scope asks for a narrower scope (RFC 6749 §6: never more than \
        the login granted) for this one answer: the stored session keeps the scope the login \
        granted, so `whoami` and `status` still describe it. Prints the new token like \
        `kcauth token`.
        """,
        options: [CommandTable.profile, scope,
                  TokenOutput.option, TokenOutput.idToken],
        examples: ["kcauth refresh --scope \"openid email\" -o json"])

    static let scope = OptionSpec("scope", value: "SCOPES", help: "Request a narrower scope")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try services.resolve(command)
        let narrower = try command.value(scope).map { raw -> String in
            try InputText.check(raw, from: "--scope")
            return Scope.normalize(raw)
        }
        let request = TokenProvider.Request(minValid: 0, force: true, scope: narrower, idToken: command.flag(TokenOutput.idToken))
        let token = try services.context.tokenProvider(profile).run(request)
        services.console.err("Refreshed profile '\(profile.name)'" + (token.expiresAt.map { "; the access token is valid until \($0)" } ?? "") + ".\n")
        try TokenCommand.print(token, command, services, profile: profile.name, prover: { try services.context.dpopProver(profile) })
    }
}
