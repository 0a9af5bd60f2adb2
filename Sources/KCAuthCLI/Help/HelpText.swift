/// Renders help from `CommandTable`; every line fits in 80 columns.
public enum HelpText {
    public static let width = 80

    public static func general() -> String {
        var out = "kcauth signs you in to Keycloak and other OpenID Connect providers and hands\nscripts a valid access token.\n\n"
        out += "Usage:\n  kcauth [--profile NAME] <command> [flags]\n\nCommands:\n"
        let nameWidth = CommandTable.commands.map(\.name.count).max()! + 2
        for c in CommandTable.commands {
            out += wrap(c.summary, indent: 2 + nameWidth, first: "  " + c.name.padded(to: nameWidth))
        }
        out += "\nFlags:\n" + optionLines(CommandTable.topLevelOptions)
        out += "\nExit status:\n"
        for status in ExitStatus.documented {
            out += wrap(status.meaning, indent: 7, first: "  " + String(status.code).padded(to: 5))
        }
        out += "\nRun `kcauth help <command>` for a command's flags.\n"
        return out
    }

    /// As gh lays it out: what the command does and how it is used (usage, a few lines, the
    /// examples) before the flags; a long description's details after them.
    public static func command(_ spec: CommandSpec) -> String {
        var out = spec.summary + "\n\nUsage:\n"
        out += wrap("kcauth \(spec.name) \(spec.usage)", indent: 4, first: "  ", breakAnywhere: false)
        out += "\n" + wrap(spec.overview ?? spec.description, indent: 0, first: "")
        if !spec.examples.isEmpty {
            out += "\nExamples:\n"
            // Examples are never wrapped, so they can be copied; a test keeps them short enough.
            for e in spec.examples { out += "  $ " + e + "\n" }
        }
        if !spec.options.isEmpty { out += "\nFlags:\n" + optionLines(spec.options) }
        if spec.overview != nil { out += "\nDetails:\n" + wrap(spec.description, indent: 0, first: "") }
        return out
    }

    /// `  -o, --output FORMAT   Help text (default: raw)`, wrapped under the help column.
    static func optionLines(_ options: [OptionSpec]) -> String {
        let lefts = options.map { o -> String in
            let short = o.short.map { "-\($0), " } ?? "    "
            return "  " + short + "--" + o.long + (o.optionalValueSuffix ?? o.value.map { " " + $0 } ?? "")
        }
        let column = min(30, lefts.map(\.count).max()! + 2)
        var out = ""
        for (o, left) in zip(options, lefts) {
            var text = o.help
            if let choices = o.choices { text += ": " + choices.joined(separator: ", ") }
            var notes: [String] = []
            if let d = o.defaultValue { notes.append("default: \(d)") }
            if let e = o.environment { notes.append("env: \(e)") }
            if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
            if left.count + 2 > column {
                out += left + "\n" + wrap(text, indent: column, first: String(repeating: " ", count: column))
            } else {
                out += wrap(text, indent: column, first: left.padded(to: column))
            }
        }
        return out
    }

    /// Word-wraps `text` to `width`; continuation lines are indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int, first: String, breakAnywhere: Bool = false) -> String {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
