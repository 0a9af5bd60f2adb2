import KCAuthCore


/// The hand-rolled parser: a pure function from argv (without the program name) to an
/// `Invocation`, driven by `CommandTable`. Accepts `--opt value`, `--opt=value`, `-o value`,
/// `-ovalue`, `--` (everything after it is positional); the last occurrence of an option wins.
public enum ArgumentParser {
    public static func parse(_ args: [String]) throws -> Invocation {
        // Global options may come before the command name (`kcauth --profile work token`).
        let (globals, rest) = try GlobalOptions.parse(args)
        if let early = globals.invocation { return early }
        guard let first = rest.first else {
            guard globals.values.isEmpty else {
                throw usage("a command must follow \(globals.shown)", or: "see `kcauth help`")
            }
            return .help(command: nil)
        }
        guard let spec = CommandTable.command(named: first) else {
            throw usage("unknown command '\(first)'", suggestion: Suggest.closest(to: first, in: CommandTable.commands.map(\.name)),
                        or: "see `kcauth help`")
        }
        try globals.check(for: spec)
        let parsed = try parse(Array(rest.dropFirst()), for: spec, given: globals.values)
        if parsed.flag(CommandTable.help) { return .help(command: spec.name) }
        if spec.name == "help" {
            if let name = parsed.positionals.first, CommandTable.command(named: name) == nil {
                throw usage("unknown command '\(name)'", suggestion: Suggest.closest(to: name, in: CommandTable.commands.map(\.name)), or: nil)
            }
            return .help(command: parsed.positionals.first)
        }
        return .run(parsed)
    }

    /// `given`: the values of global options that came before the command name; the same
    /// option after it wins, as the last occurrence always does.
    static func parse(_ args: [String], for spec: CommandSpec, given: [String: String] = [:]) throws -> ParsedCommand {
        var result = ParsedCommand(name: spec.name, values: given)
        var i = 0
        var onlyPositionals = false
        var seen: Set<String> = []
        func take(_ option: OptionSpec, inline: String?, shown: String) throws {
            if option.valueIsOptional {
                // `--debug` or `--debug=json`: never the next word.
                if let inline, let choices = option.choices, !choices.contains(inline) {
                    throw usage("invalid value '\(inline)' for \(shown): use one of \(choices.joined(separator: ", "))")
                }
                result.values[option.long] = inline ?? ""
                return
            }
            guard option.takesValue else {
                if inline != nil { throw usage("option \(shown) takes no value") }
                result.flags.insert(option.long)
                return
            }
            let value: String
            if let inline {
                value = inline
            } else {
                i += 1
                guard i < args.count else { throw usage("option \(shown) needs a value (\(option.value!))") }
                value = args[i]
            }
            if let choices = option.choices, !choices.contains(value) {
                throw usage("invalid value '\(value)' for \(shown): use one of \(choices.joined(separator: ", "))")
            }
            // Only an option repeated after the command is recorded twice over (`exec --env A
            // --env B`); for the others the last one wins, over a global one before the command too.
            if seen.contains(option.long), let previous = result.values[option.long] {
                result.repeated[option.long, default: [previous]].append(value)
            }
            seen.insert(option.long)
            result.values[option.long] = value
        }
        while i < args.count {
            let arg = args[i]
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") || (spec.shortOptionsStartCommandLine && !arg.hasPrefix("--")) {
                // A command that runs another (`exec`): from its first word on, everything is its.
                if spec.takesCommandLine { onlyPositionals = true }
                guard spec.takesCommandLine || result.positionals.count < spec.positionals.count else {
                    throw usage("unexpected argument '\(arg)' for `kcauth \(spec.name)`",
                                suggestion: profileMeant(arg, spec: spec, given: given, args: args),
                                or: "see `kcauth \(spec.name) --help`")
                }
                if case .choices(let choices) = spec.arguments, !choices.contains(arg) {
                    throw usage("invalid argument '\(arg)' for `kcauth \(spec.name)`: use one of \(choices.joined(separator: ", "))",
                                suggestion: Suggest.closest(to: arg, in: choices), or: nil)
                }
                result.positionals.append(arg)
            } else if arg == "--" {
                onlyPositionals = true
            } else if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let option = spec.option(long: name) else {
                    if name == "profile", let value = inline ?? (i + 1 < args.count ? args[i + 1] : nil) {
                        throw noProfile(spec, value: value)
                    }
                    throw usage("unknown option '--\(name)' for `kcauth \(spec.name)`",
                                suggestion: Suggest.closest(to: "--" + name, in: spec.options.map { "--" + $0.long }),
                                or: "see `kcauth \(spec.name) --help`")
                }
                try take(option, inline: inline, shown: "--\(name)")
            } else {
                let letter = arg.dropFirst().first!
                guard let option = spec.option(short: letter) else {
                    throw usage("unknown option '-\(letter)' for `kcauth \(spec.name)`", suggestion: nil,
                                or: "see `kcauth \(spec.name) --help`")
                }
                let rest = String(arg.dropFirst(2))
                if !option.takesValue, !rest.isEmpty { throw usage("option -\(letter) takes no value") }
                try take(option, inline: rest.isEmpty ? nil : rest, shown: "-\(letter)")
            }
            i += 1
        }
        return result
    }

    /// `kcauth token work`: oidc-token and similar tools take the account as an argument, so a
    /// word where a command takes none but takes --profile is most likely a profile's name.
    static func profileMeant(_ word: String, spec: CommandSpec, given: [String: String], args: [String]) -> String? {
        let profileGiven = given["profile"] != nil || args.contains { $0 == "--profile" || $0.hasPrefix("--profile=") }
        guard spec.positionals.isEmpty, spec.option(long: "profile") != nil, !profileGiven,
              ProfileName.isValid(word) else { return nil }
        return "--profile \(word)"
    }

    /// A command that takes no --profile, given one. One that takes a profile's name as its
    /// argument (`kcauth use --profile kc`) is most likely meant with that name; any other uses
    /// no profile at all (`setup-client` prints a client from its own options), and the answer
    /// is what that command takes: its usage, not another command.
    static func noProfile(_ spec: CommandSpec, value: String) -> KCAuthError {
        let shown = ProfileName.isValid(value) ? value : Shell.quote(value)
        if spec.arguments == .profiles {
            return usage("`kcauth \(spec.name)` takes no --profile", suggestion: "kcauth \(spec.name) \(shown)")
        }
        let line = (["kcauth", spec.name] + (spec.usage.isEmpty ? [] : [spec.usage])).joined(separator: " ")
        return usage("`kcauth \(spec.name)` takes no --profile: it uses no profile", or: "usage: `\(line)`")
    }

    static func usage(_ message: String, suggestion: String? = nil, or fallback: String? = nil) -> KCAuthError {
        if let suggestion { return KCAuthError(.usage, message, hint: "did you mean '\(suggestion)'?") }
        return KCAuthError(.usage, message, hint: fallback)
    }
}
