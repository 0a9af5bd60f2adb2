/// One command: its entry in the table, and what it does. Commands stay thin: options in, one
/// use case, output rendered.
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    static func run(_ command: ParsedCommand, _ services: Services) throws
}
