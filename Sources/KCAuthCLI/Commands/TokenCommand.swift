import KCAuthCore

/// `kcauth token`: the access token on stdout and nothing else.
enum TokenCommand {
    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try services.profile(command)
        let state = try GetToken(store: services.store, clock: services.clock).run(profile: profile)
        services.console.out(state.accessToken + "\n")
    }
}
