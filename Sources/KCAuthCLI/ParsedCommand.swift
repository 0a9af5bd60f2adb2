import KCAuthCore

/// A command with its options, as given on the command line (not yet interpreted).
public struct ParsedCommand: Sendable, Equatable {
    public var name: String
    public var values: [String: String] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []
    /// Every value of an option given more than once, in order (`exec --env A --env B`).
    public var repeated: [String: [String]] = [:]

    public init(name: String, values: [String: String] = [:], flags: Set<String> = [], positionals: [String] = [],
                repeated: [String: [String]] = [:]) {
        self.repeated = repeated
        self.name = name
        self.values = values
        self.flags = flags
        self.positionals = positionals
    }

    public func value(_ long: String) -> String? { values[long] }
    public func flag(_ long: String) -> Bool { flags.contains(long) }
    public func allValues(_ long: String) -> [String] { repeated[long] ?? values[long].map { [$0] } ?? [] }
}
