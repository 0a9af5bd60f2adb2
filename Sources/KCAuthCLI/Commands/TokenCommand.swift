import KCAuthCore

/// `kcauth token`: the access token on stdout and nothing else.
enum TokenCommand: Command {
    static let spec = CommandSpec(
        "token", summary: "Print the access token for scripts",
        description: """
        Prints the stored access token of the profile on stdout, followed by a newline, and \
        nothing else. Needs no network. When the token has expired, kcauth says so on stderr and \
        exits with status 4.
        """,
        options: [CommandTable.profile],
        examples: ["curl -H \"Authorization: Bearer $(kcauth token)\" https://api.example.com/"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try services.profile(command)
        let state = try GetToken(store: try services.store(for: profile), clock: services.clock).run(profile: profile)
        services.console.out(state.accessToken + "\n")
    }
}
