import KCAuthCore

/// A `kcauth …` command line quoted to a person (in a remedy, a hint, a message), built from the
/// command's and its options' specs, so that it says only what the parser accepts: the command's
/// name, an option it takes by its long flag, a value the option takes. Debug builds assert
/// each step, and QuotedCommandsTests renders every remedy and parses what it quotes.
struct QuotedCommand: CustomStringConvertible, Sendable {
    let spec: CommandSpec
    private(set) var words: [String]

    init(_ spec: CommandSpec) {
        self.spec = spec
        words = ["kcauth", spec.name]
    }

    /// With a flag (`--browser`), or an option and its value (`--dpop-mode no`), which must be
    /// one of the option's choices when it has them.
    func with(_ option: OptionSpec, _ value: String? = nil) -> QuotedCommand {
        assert(spec.options.contains(option), "`kcauth \(spec.name)` takes no --\(option.long)")
        assert((value != nil) == option.takesValue, "--\(option.long) \(option.takesValue ? "takes" : "takes no") value")
        assert(value.map { v in option.choices.map { $0.contains(v) } ?? true } ?? true, "--\(option.long) takes no '\(value ?? "")'")
        var copy = self
        copy.words.append("--" + option.long)
        if let value { copy.words.append(value) }
        return copy
    }

    /// With an option and its placeholder (`--ca-file PEM`), for a value the person supplies.
    func withPlaceholder(_ option: OptionSpec) -> QuotedCommand {
        assert(spec.options.contains(option), "`kcauth \(spec.name)` takes no --\(option.long)")
        assert(option.takesValue && option.choices == nil, "--\(option.long) takes no placeholder")
        var copy = self
        copy.words += ["--" + option.long, option.value ?? "VALUE"]
        return copy
    }

    /// With a positional argument (`kcauth use NAME`).
    func argument(_ word: String) -> QuotedCommand {
        assert(!spec.positionals.isEmpty, "`kcauth \(spec.name)` takes no argument")
        var copy = self
        copy.words.append(word)
        return copy
    }

    /// With `--profile NAME` unless the profile is the default one (which needs no flag).
    func profile(_ name: String) -> QuotedCommand {
        name == ProfileName.defaultName ? self : with(CommandTable.profile, name)
    }

    var description: String { words.joined(separator: " ") }

    /// Set in backticks, as the words quote a command.
    var quoted: String { "`" + description + "`" }
}
