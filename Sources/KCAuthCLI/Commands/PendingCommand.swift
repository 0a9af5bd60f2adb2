import KCAuthCore

/// Commands that are listed but not built yet: they say so and fail, rather than pretend.
enum PendingCommand {
    static func run(_ command: ParsedCommand) throws {
        throw KCAuthError(.notImplemented, "`kcauth \(command.name)` is not implemented yet")
    }
}
