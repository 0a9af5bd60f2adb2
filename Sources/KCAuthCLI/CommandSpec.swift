/// One option of a command, as the single source for parsing, help, the man page and completions.
public struct OptionSpec: Sendable, Equatable {
    public var long: String
    public var short: Character?
    /// The value's placeholder (`URL`, `SECONDS`); nil for a flag that takes no value.
    public var value: String?
    public var help: String
    public var defaultValue: String?
    /// The accepted values of an enumerated option (for validation and completions).
    public var choices: [String]?
    /// The environment variable that supplies the value when the option is absent.
    public var environment: String?

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String,
                default defaultValue: String? = nil, choices: [String]? = nil, environment: String? = nil) {
        self.long = long
        self.short = short
        self.value = value
        self.help = help
        self.defaultValue = defaultValue
        self.choices = choices
        self.environment = environment
    }

    public var takesValue: Bool { value != nil }
}

public struct CommandSpec: Sendable, Equatable {
    public var name: String
    /// One line, no trailing period: shown in the command list.
    public var summary: String
    /// Longer text for `kcauth help NAME`.
    public var description: String
    /// What follows `kcauth NAME` in the usage line (gh notation: `<x> [y] {a|b}`).
    public var usage: String
    public var options: [OptionSpec]
    /// Names of positional arguments this command accepts (at most this many).
    public var positionals: [String]
    public var examples: [String]

    public init(_ name: String, summary: String, description: String, usage: String = "[flags]",
                options: [OptionSpec], positionals: [String] = [], examples: [String] = []) {
        self.name = name
        self.summary = summary
        self.description = description
        self.usage = usage
        self.options = options + [CommandTable.help]
        self.positionals = positionals
        self.examples = examples
    }

    public func option(long: String) -> OptionSpec? { options.first { $0.long == long } }
    public func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
}
