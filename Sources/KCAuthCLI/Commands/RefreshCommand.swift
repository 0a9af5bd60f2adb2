import KCAuthCore

/// `kcauth refresh`: refresh now, even if the access token is still valid.
enum RefreshCommand: Command {
    static let spec = CommandSpec(
        "refresh", summary: "Refresh the tokens now and print the new access token",
        description: """
        Uses the stored refresh token right away (under the same cross-process lock as `token`) \
        and stores the result. --scope asks for a narrower scope (RFC 6749 §6: never more than \
        the login granted); the stored session keeps that scope until the next refresh without \
        --scope or the next login. Prints the new token like `kcauth token`.
        """,
        options: [CommandTable.profile,
                  OptionSpec("scope", value: "SCOPES", help: "Request a narrower scope"),
                  TokenOutput.option, TokenOutput.idToken],
        examples: ["kcauth refresh --scope \"openid email\" -o json"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try services.profile(command)
        let scope = command.value("scope").map(Scope.normalize)
        let request = GetToken.Request(profile: profile, minValid: 0, force: true, scope: scope, idToken: command.flag("id-token"))
        let token = try services.context.getToken(profile: profile).run(request)
        services.console.err("Refreshed profile '\(profile)'" + (token.expiresAt.map { "; the access token is valid until \(RFC3339.format($0))" } ?? "") + ".\n")
        try TokenCommand.print(token, command, services, profile: profile)
    }
}
