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

    /// The value given for `option`, if any (the option's spec is the key: no string lookups).
    public func value(_ option: OptionSpec) -> String? { values[option.long] }
    /// Whether the flag `option` was given.
    public func flag(_ option: OptionSpec) -> Bool { flags.contains(option.long) }
    /// Every value of an option given more than once, in order (`exec --env A --env B`).
    public func allValues(_ option: OptionSpec) -> [String] { repeated[option.long] ?? values[option.long].map { [$0] } ?? [] }
}
