extension Completions {
    /// For fish's completions directory (`kcauth.fish`) or `source`.
    static func fish() -> String {
        var out = header("fish")
        out += """
        # The command: the first word after kcauth that is neither an option nor the value of a
        # global option (`kcauth --profile work token`).
        function __kcauth_command
            set -l skip 0
            for word in (commandline -opc)[2..-1]
                if test $skip = 1
                    set skip 0
                    continue
                end
                switch $word
                    case \(globalValueSpellings.map(fishQuoted).joined(separator: " "))
                        set skip 1
                    case '-*'
                    case '*'
                        echo $word
                        return 0
                end
            end
            return 1
        end

        function __kcauth_using -a name
            set -l command (__kcauth_command)
            and test "$command" = "$name"
        end

        # `kcauth NAME` with fewer than MAX arguments so far; the other arguments are the flags
        # of NAME that take a value (their values are not arguments).
        function __kcauth_wants_argument -a name max
            set -l values $argv[3..-1]
            set -l command (__kcauth_command)
            and test "$command" = "$name"
            or return 1
            set -l count 0
            set -l skip 0
            set -l seen 0
            for word in (commandline -opc)[2..-1]
                if test $seen = 0
                    test "$word" = "$name"; and set seen 1
                else if test $skip = 1
                    set skip 0
                else if contains -- $word $values
                    set skip 1
                else if not string match -q -- '-*' $word
                    set count (math $count + 1)
                end
            end
            test $count -lt $max
        end

        function __kcauth_profiles
            command kcauth profiles --names 2>/dev/null
        end

        complete -c kcauth -f

        """
        for o in CommandTable.topLevelOptions {
            out += fishOption(o, condition: "not __kcauth_command") + "\n"
        }
        for spec in CommandTable.commands {
            out += "complete -c kcauth -n 'not __kcauth_command' -a \(spec.name) -d \(fishQuoted(spec.summary))\n"
        }
        for spec in CommandTable.commands {
            out += "\n"
            for o in spec.options {
                out += fishOption(o, condition: "__kcauth_using \(spec.name)") + "\n"
            }
            if !spec.positionals.isEmpty, let action = fishArguments(spec.arguments) {
                let values = spec.options.filter(\.takesValue).flatMap(spellings)
                let condition = (["__kcauth_wants_argument", spec.name, String(spec.positionals.count)] + values).joined(separator: " ")
                out += "complete -c kcauth -n \(fishQuoted(condition)) \(action)\n"
            }
        }
        return out
    }

    static func fishOption(_ o: OptionSpec, condition: String) -> String {
        var line = "complete -c kcauth -n \(fishQuoted(condition))"
        if let s = o.short { line += " -s \(s)" }
        line += " -l \(o.long)"
        if o.takesValue {
            switch o.valueCompletion {
            case .files: line += " -r -F"
            default: line += " -x" + (fishArguments(o.valueCompletion).map { " " + $0 } ?? "")
            }
        }
        return line + " -d " + fishQuoted(o.help)
    }

    /// `-a …` for the values; nil when there is nothing to offer.
    static func fishArguments(_ values: CompletionValues) -> String? {
        switch values {
        case .nothing: return nil
        case .choices(let list), .offered(let list): return "-a " + fishQuoted(list.joined(separator: " "))
        case .profiles: return "-a '(__kcauth_profiles)'"
        case .commands: return "-a " + fishQuoted(commandNames.joined(separator: " "))
        case .files: return "-F"
        }
    }

    /// fish single quotes: only `\\` and `\'` are escapes inside them.
    static func fishQuoted(_ s: String) -> String {
        var out = "'"
        for c in s {
            if c == "\\" || c == "'" { out += "\\" }
            out.append(c)
        }
        return out + "'"
    }
}
