

public struct CommandSpec: Sendable, Equatable {
    public var name: String
    /// One line, no trailing period: shown in the command list.
    public var summary: String
    /// Longer text for `kcauth help NAME`.
    public var description: String
    /// At most three lines (at 80 columns) that say what the command does, for a command whose
    /// `description` is long: help then shows it and the examples first, the flags next, and the
    /// whole description last ("Details"), as gh does.
    public var overview: String?
    /// What follows `kcauth NAME` in the usage line (gh notation: `<x> [y] {a|b}`).
    public var usage: String
    public var options: [OptionSpec]
    /// Names of positional arguments this command accepts (at most this many).
    public var positionals: [String]
    /// What completion offers for the positional arguments; with `.choices` the parser accepts
    /// only those values.
    public var arguments: CompletionValues
    public var examples: [String]
    /// A single-dash word starts the command line (`kcauth ssh -p 2222 host`: ssh's options are
    /// ssh's); the command's own options are long ones, given first.
    public var shortOptionsStartCommandLine = false

    public init(_ name: String, summary: String, overview: String? = nil, description: String, usage: String = "[flags]",
                options: [OptionSpec], positionals: [String] = [], arguments: CompletionValues = .nothing,
                examples: [String] = []) {
        self.name = name
        self.summary = summary
        self.overview = overview
        self.description = description
        self.usage = usage
        self.options = options + [CommandTable.debug, CommandTable.help]
        self.positionals = positionals
        self.arguments = arguments
        self.examples = examples
    }

    /// The last positional ends in "...": the rest of the command line is another command's.
    public var takesCommandLine: Bool { positionals.last?.hasSuffix("...") ?? false }

    public func option(long: String) -> OptionSpec? { options.first { $0.long == long } }
    public func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
}
