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
    /// The value may only be given inline (`--debug=json`); alone the option is a flag. A word
    /// after it is never its value (`kcauth --debug token`).
    public var valueIsOptional = false

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

    /// Takes a value as its next word or after `=`: not an option whose value is optional.
    public var takesValue: Bool { value != nil && !valueIsOptional }

    /// `--debug[=FORMAT]`: how help and the man page spell an option whose value is optional.
    public var optionalValueSuffix: String? { valueIsOptional ? value.map { "[=" + $0 + "]" } : nil }

    /// What completion offers for the value: the choices of an enumerated option, else `completes`.
    public var valueCompletion: CompletionValues { choices.map(CompletionValues.choices) ?? completes }
}
