import Testing
@testable import KCAuthCLI
import KCAuthTestSupport

/// Each completion script offers every command and, per command, exactly the flags the parser
/// accepts for it (both spellings), and the values of enumerated options. The real shells run
/// these scripts in Tests/Integration/test_completions.py.
@Suite struct CompletionScriptTests {
    static func expectedFlags(_ spec: CommandSpec) -> Set<String> { Set(spec.options.flatMap(Completions.spellings)) }

    static func words(_ quoted: Substring) -> Set<String> { Set(quoted.split(separator: " ").map(String.init)) }

    /// The quoted value after `name=` on a line: `flags='--a --b'` → "--a --b".
    static func assignment(_ name: String, in line: Substring) -> Substring? {
        guard let r = line.firstRange(of: " \(name)='") else { return nil }
        return line[r.upperBound...].prefix { $0 != "'" }
    }

    @Test func bashOffersExactlyEachCommandsFlags() {
        let script = Completions.bash()
        let lines = script.split(separator: "\n")
        for spec in CommandTable.commands {
            let line = lines.first { $0.hasPrefix("        \(spec.name)) flags=") }
            #expect(line != nil, "bash: no flags for \(spec.name)")
            guard let line else { continue }
            #expect(Self.words(Self.assignment("flags", in: line) ?? "") == Self.expectedFlags(spec), "bash: flags of \(spec.name)")
            let values = Set(spec.options.filter(\.takesValue).flatMap(Completions.spellings))
            #expect(Self.words(Self.assignment("values", in: line) ?? "") == values, "bash: value flags of \(spec.name)")
            #expect(line.hasSuffix(" max=\(spec.positionals.count) ;;"))
        }
        // `'token --output' | 'token -o')`: the value patterns name the command's own flags.
        for line in lines where line.hasPrefix("            '") {
            for pattern in line.split(separator: ")").first!.split(separator: "|") {
                let parts = pattern.filter { $0 != "'" }.split(separator: " ")
                #expect(Docs.accepts(String(parts[0]), String(parts[1])), "bash: \(line)")
            }
        }
        #expect(script.contains("*) _kcauth_reply '\(Completions.commandNames.joined(separator: " "))' ;;"))
        #expect(script.contains("-*) _kcauth_reply '-h --help --version --profile --debug' ;;"))
        // Before the command name: the value of --profile is a profile, and it is not the command.
        #expect(script.contains("            --profile) _kcauth_reply \"$(_kcauth_profiles)\"; return ;;"))
        #expect(script.contains("            --profile) ((i++)); [[ ${words[i]} == = ]] && ((i++)) ;;"))
        #expect(script.contains("'token --output' | 'token -o') _kcauth_reply 'raw header json env exec-credential curl headers-json' ;;")
             || script.contains("'token -o' | 'token --output') _kcauth_reply 'raw header json env exec-credential curl headers-json' ;;"))
        #expect(script.contains("'token --profile') _kcauth_reply \"$(_kcauth_profiles)\" ;;"))
        #expect(script.contains("command kcauth profiles --names"))
    }

    @Test func zshOffersExactlyEachCommandsFlags() {
        let script = Completions.zsh()
        #expect(script.hasPrefix("#compdef kcauth\n"))
        for spec in CommandTable.commands {
            #expect(script.contains("    '\(spec.name):"), "zsh: \(spec.name) is not a command")
            let block = Docs.block(script, from: "    (\(spec.name))", to: "      ;;")
            #expect(!block.isEmpty, "zsh: no block for \(spec.name)")
            // Descriptions (in brackets) may mention flags; the option specs are what zsh offers.
            let specs = block.filter { !$0.contains("_arguments") }.map { Self.removingDescriptions($0) }.joined(separator: " ")
            #expect(Set(Docs.flags(in: Substring(specs))) == Self.expectedFlags(spec), "zsh: flags of \(spec.name)")
        }
        #expect(script.contains("{-o+,--output=}'[Output format]:FORMAT:(raw header json env exec-credential curl headers-json)'"))
        #expect(script.contains("--profile='[Profile to use]:NAME:_kcauth_profiles'"))
        #expect(script.contains("'1:shell:(bash zsh fish)'"))
        // A global option with a value does not end the command line, as help and version do.
        #expect(script.contains("\n    --profile='[Profile to use: the command'\\''s --profile, given before the command]:NAME:_kcauth_profiles' \\\n"))
    }

    static func removingDescriptions(_ line: Substring) -> String {
        var out = ""
        var depth = 0
        var escaped = false
        for c in line {
            if escaped { escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "[" { depth += 1; continue }
            if c == "]" { depth -= 1; continue }
            if depth == 0 { out.append(c) }
        }
        return out
    }

    @Test func fishOffersExactlyEachCommandsFlags() {
        let lines = Completions.fish().split(separator: "\n")
        for spec in CommandTable.commands {
            #expect(lines.contains { $0.hasPrefix("complete -c kcauth -n 'not __kcauth_command' -a \(spec.name) -d ") })
            var flags = Set<String>()
            for line in lines where line.contains("-n '__kcauth_using \(spec.name)'") {
                let words = line.split(separator: " ")
                for (i, w) in words.enumerated() where i + 1 < words.count {
                    if w == "-s" { flags.insert("-" + words[i + 1]) }
                    if w == "-l" { flags.insert("--" + words[i + 1]) }
                }
            }
            #expect(flags == Self.expectedFlags(spec), "fish: flags of \(spec.name)")
        }
        #expect(lines.contains("complete -c kcauth -n '__kcauth_using token' -s o -l output -x -a 'raw header json env exec-credential curl headers-json' -d 'Output format'"))
        #expect(lines.contains("complete -c kcauth -n '__kcauth_using token' -l profile -x -a '(__kcauth_profiles)' -d 'Profile to use'"))
        #expect(lines.contains { $0.hasPrefix("complete -c kcauth -n 'not __kcauth_command' -l profile -x -a '(__kcauth_profiles)' -d ") })
        #expect(lines.contains("            case '--profile'"), "fish: the value of a global --profile is not the command")
    }

    @Test func theCompletionCommandIsInTheTableWithItsShells() {
        let spec = CommandTable.command(named: "completion")
        #expect(spec?.arguments == .choices(["bash", "zsh", "fish"]))
        #expect(Set(CompletionCommand.Shell.allCases.map(\.rawValue)) == ["bash", "zsh", "fish"])
    }
}
