import KCAuthCore

/// A command with its options, as given on the command line (not yet interpreted).
public struct ParsedCommand: Sendable, Equatable {
    public var name: String
    public var values: [String: String] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    public init(name: String, values: [String: String] = [:], flags: Set<String> = [], positionals: [String] = []) {
        self.name = name
        self.values = values
        self.flags = flags
        self.positionals = positionals
    }

    public func value(_ long: String) -> String? { values[long] }
    public func flag(_ long: String) -> Bool { flags.contains(long) }
}
