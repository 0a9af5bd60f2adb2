import KCAuthCore

/// The options given before the command name (`kcauth --profile work token`), as gh and git
/// accept them. `-h`/`--help` and `--version` answer at once; an option that takes a value
/// (`--profile`) is handed to the command as if it came after its name, and only to a command
/// that accepts it. Which options these are is `CommandTable.topLevelOptions`.
struct GlobalOptions: Sendable, Equatable {
    /// Help or version, asked for before any command.
    var invocation: Invocation?
    /// Values by long name, for the command's own parse to start from.
    var values: [String: String] = [:]
    /// How they were spelled, in order (`--profile work`), for messages.
    var spelled: [String] = []

    var shown: String { spelled.joined(separator: " ") }

    /// Splits argv into the global options and the rest (the command name onwards).
    static func parse(_ args: [String]) throws -> (GlobalOptions, ArraySlice<String>) {
        var globals = GlobalOptions()
        var i = 0
        while i < args.count, args[i].hasPrefix("-"), args[i] != "-" {
            let arg = args[i]
            if arg == "--" { return (globals, args[(i + 1)...]) }
            let name = arg.hasPrefix("--") ? String(arg.dropFirst(2).prefix { $0 != "=" }) : nil
            let inline: String? = arg.hasPrefix("--") && arg.contains("=") ? String(arg.drop { $0 != "=" }.dropFirst()) : nil
            let option = name.map { n in CommandTable.topLevelOptions.first { $0.long == n } }
                ?? arg.dropFirst().first.flatMap { c in arg.count == 2 ? CommandTable.topLevelOptions.first { $0.short == c } : nil }
            guard let option else { throw unknown(arg, name: name, before: args[(i + 1)...]) }
            if option.long == "help" { return (GlobalOptions(invocation: .help(command: nil)), []) }
            if option.long == "version" { return (GlobalOptions(invocation: .version), []) }
            let value: String
            if let inline {
                value = inline
            } else if option.valueIsOptional {
                value = ""   // `--debug` alone: the option without its value
            } else {
                i += 1
                guard i < args.count else {
                    throw ArgumentParser.usage("option --\(option.long) needs a value (\(option.value ?? "VALUE"))")
                }
                value = args[i]
            }
            globals.values[option.long] = value
            globals.spelled.append(option.valueIsOptional ? arg : "--\(option.long) \(value)")
            i += 1
        }
        return (globals, args[i...])
    }

    /// Every global option given must be one the command takes, checked as the command checks
    /// its own (choices).
    func check(for spec: CommandSpec) throws {
        for (long, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let option = spec.option(long: long) else {
                // `kcauth --profile work use`: use takes the profile as its argument.
                if long == "profile" { throw ArgumentParser.noProfile(spec, value: value) }
                throw ArgumentParser.usage("`kcauth \(spec.name)` takes no --\(long)", or: "see `kcauth \(spec.name) --help`")
            }
            if let choices = option.choices, !choices.contains(value), !(option.valueIsOptional && value.isEmpty) {
                throw ArgumentParser.usage("invalid value '\(value)' for --\(long): use one of \(choices.joined(separator: ", "))")
            }
        }
    }

    /// An option before the command that is not a global one: either a command's option (it
    /// goes after that command's name), a typo of a global option, or nothing kcauth has.
    static func unknown(_ arg: String, name: String?, before rest: ArraySlice<String>) -> KCAuthError {
        let shown = name.map { "--" + $0 } ?? arg
        let owners = CommandTable.commands.filter { spec in
            spec.options.contains { o in name.map { $0 == o.long } ?? (arg.count == 2 && o.short == arg.dropFirst().first) }
        }
        if let first = owners.first {
            let following = rest.lazy.compactMap(CommandTable.command(named:)).first
            let owner = following.flatMap { f in owners.contains { $0.name == f.name } ? f : nil } ?? first
            // The example is the command as it parses: the option by its long name, with the
            // value given (when it is one the option takes), else the option's placeholder.
            var example = QuotedCommand(owner)
            if let option = owner.options.first(where: { o in name.map { $0 == o.long } ?? (o.short == arg.dropFirst().first) }) {
                if !option.takesValue {
                    example = example.with(option)
                } else if let given = arg.contains("=") ? String(arg.drop { $0 != "=" }.dropFirst()) : rest.first,
                          !given.isEmpty, !given.hasPrefix("-"), option.choices?.contains(given) ?? true {
                    example = example.with(option, given)
                } else {
                    example = option.choices.map { example.with(option, $0[0]) } ?? example.withPlaceholder(option)
                }
            }
            return KCAuthError(.usage, "option '\(shown)' goes after the command name", hint: "for example \(example.quoted)")
        }
        let spellings = CommandTable.topLevelOptions.map { "--" + $0.long }
        return ArgumentParser.usage("unknown option '\(shown)'", suggestion: name == nil ? initial(of: shown) : Suggest.closest(to: shown, in: spellings),
                                    or: "see `kcauth help`")
    }

    /// `-v` for `--version`, `-p` for `--profile`: a single letter that is the initial of
    /// exactly one global option without a short form.
    static func initial(of short: String) -> String? {
        guard short.count == 2, let letter = short.dropFirst().first?.lowercased() else { return nil }
        let matches = CommandTable.topLevelOptions.filter { $0.short == nil && $0.long.hasPrefix(letter) }
        return matches.count == 1 ? "--" + matches[0].long : nil
    }
}
