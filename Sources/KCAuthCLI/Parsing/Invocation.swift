import KCAuthCore

/// What the command line asks for.
public enum Invocation: Sendable, Equatable {
    /// General help (nil) or help for one command.
    case help(command: String?)
    case version
    case run(ParsedCommand)
}
