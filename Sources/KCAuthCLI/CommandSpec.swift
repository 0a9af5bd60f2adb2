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
    /// What shell completion offers for a value that is not one of `choices`.
    public var completes: CompletionValues

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String,
                default defaultValue: String? = nil, choices: [String]? = nil, environment: String? = nil,
                completes: CompletionValues = .nothing) {
        self.long = long
        self.short = short
        self.value = value
        self.help = help
        self.defaultValue = defaultValue
        self.choices = choices
        self.environment = environment
        self.completes = completes
    }

    public var takesValue: Bool { value != nil }

    /// What completion offers for the value: the choices of an enumerated option, else `completes`.
    public var valueCompletion: CompletionValues { choices.map(CompletionValues.choices) ?? completes }
}

/// What a shell offers for a value (an option's or a positional argument's) when you press Tab.
public enum CompletionValues: Sendable, Equatable {
    /// Free text (a URL, a number): nothing to offer.
    case nothing
    case choices([String])
    /// The profile names, from `kcauth profiles --names` run at completion time.
    case profiles
    /// kcauth's command names.
    case commands
    case files
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
    /// What completion offers for the positional arguments; with `.choices` the parser accepts
    /// only those values.
    public var arguments: CompletionValues
    public var examples: [String]

    public init(_ name: String, summary: String, description: String, usage: String = "[flags]",
                options: [OptionSpec], positionals: [String] = [], arguments: CompletionValues = .nothing,
                examples: [String] = []) {
        self.name = name
        self.summary = summary
        self.description = description
        self.usage = usage
        self.options = options + [CommandTable.help]
        self.positionals = positionals
        self.arguments = arguments
        self.examples = examples
    }

    public func option(long: String) -> OptionSpec? { options.first { $0.long == long } }
    public func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
}
