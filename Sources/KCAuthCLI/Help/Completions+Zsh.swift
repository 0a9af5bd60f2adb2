extension Completions {
    /// For zsh's `$fpath` (`_kcauth`, autoloaded by compinit) or `source`: the last lines tell
    /// the two apart, as zsh's own completion files do.
    static func zsh() -> String {
        var out = "#compdef kcauth\n" + header("zsh")
        out += """
        _kcauth_profiles() {
          local -a profiles
          profiles=(${(f)"$(_call_program profiles command kcauth profiles --names 2>/dev/null)"})
          _wanted profiles expl profile compadd -a profiles
        }

        _kcauth_commands() {
          local -a commands
          commands=(

        """
        for spec in CommandTable.commands {
            out += "    " + singleQuoted(spec.name + ":" + spec.summary) + "\n"
        }
        out += """
          )
          _describe -t commands 'kcauth command' commands
        }

        _kcauth() {
          local curcontext=$curcontext state line
          typeset -A opt_args
          _arguments -C \\

        """
        // Help and version end the command line; a global option with a value (--profile) is
        // followed by the command.
        for o in CommandTable.topLevelOptions {
            out += "    " + zshOption(o, excludesAll: !o.takesValue && !o.valueIsOptional) + " \\\n"
        }
        out += """
            '1: :_kcauth_commands' \\
            '*:: :->command' && return
          curcontext=${curcontext%:*:*}:kcauth-$words[1]:
          case $words[1] in

        """
        for spec in CommandTable.commands {
            var specs = spec.options.map { zshOption($0, excludesAll: $0.long == "help") }
            for index in spec.positionals.indices {
                specs.append(singleQuoted("\(index + 1):\(spec.positionals[index]):" + zshAction(spec.arguments)))
            }
            out += "    (\(spec.name))\n      _arguments -s -S \\\n"
            out += specs.map { "        " + $0 }.joined(separator: " \\\n") + "\n      ;;\n"
        }
        out += """
          esac
        }

        if [[ $funcstack[1] == _kcauth ]]; then
          _kcauth "$@"
        else
          compdef _kcauth kcauth
        fi

        """
        return out
    }

    /// `'(-o --output)'{-o+,--output=}'[Output format]:FORMAT:(raw json)'`: both spellings, each
    /// excluding the other (or, for help, everything else), the value's message and action.
    static func zshOption(_ o: OptionSpec, excludesAll: Bool) -> String {
        let names = spellings(o)
        let suffixes = names.map { name -> String in
            // `--debug=-`: a value only in the same word (`--debug=json`), and optional.
            if o.valueIsOptional { return name + "=-" }
            guard o.takesValue else { return name }
            return name + (name.hasPrefix("--") ? "=" : "+")
        }
        let exclusion = excludesAll ? "(- *)" : names.count > 1 ? "(" + names.joined(separator: " ") + ")" : ""
        let description = "[" + o.help.replacingBrackets() + "]"
        let value = o.value.map { ":" + $0 + ":" + zshAction(o.valueCompletion) } ?? ""
        let spelled = suffixes.count > 1 ? "{" + suffixes.joined(separator: ",") + "}" : suffixes[0]
        return (exclusion.isEmpty ? "" : singleQuoted(exclusion)) + spelled + singleQuoted(description + value)
    }

    static func zshAction(_ values: CompletionValues) -> String {
        switch values {
        case .nothing: return " "
        case .choices(let list), .offered(let list): return "(" + list.joined(separator: " ") + ")"
        case .profiles: return "_kcauth_profiles"
        case .commands: return "_kcauth_commands"
        case .files: return "_files"
        }
    }
}

private extension String {
    /// `[` and `]` end an `_arguments` description, so they are escaped.
    func replacingBrackets() -> String {
        var out = ""
        for c in self {
            if c == "[" || c == "]" { out += "\\" }
            out.append(c)
        }
        return out
    }
}
