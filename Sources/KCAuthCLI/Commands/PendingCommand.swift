import KCAuthCore

/// Commands that are listed but not built yet: they say so and fail, rather than pretend.
protocol PendingCommand: Command {}

extension PendingCommand {
    static func run(_ command: ParsedCommand, _ services: Services) throws {
        throw KCAuthError(.notImplemented, "`kcauth \(command.name)` is not implemented yet")
    }
}

enum RefreshCommand: PendingCommand {
    static let spec = CommandSpec(
        "refresh", summary: "Refresh the stored tokens now (not implemented yet)",
        description: "Not implemented yet: prints a message and exits with status 1.",
        options: [CommandTable.profile])
}

enum LogoutCommand: PendingCommand {
    static let spec = CommandSpec(
        "logout", summary: "Sign out and delete the stored session (not implemented yet)",
        description: "Not implemented yet: prints a message and exits with status 1.",
        options: [CommandTable.profile])
}

enum WhoamiCommand: PendingCommand {
    static let spec = CommandSpec(
        "whoami", summary: "Show who is signed in (not implemented yet)",
        description: "Not implemented yet: prints a message and exits with status 1.",
        options: [CommandTable.profile])
}
