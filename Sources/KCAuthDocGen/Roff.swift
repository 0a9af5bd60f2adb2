/// The roff (man(7)) building blocks of the man page. What they guarantee is what
/// `mandoc -T lint` and `man --warnings` check: no input text line longer than 80 bytes, no text
/// line that starts with a control character, and nothing but ASCII in the file (other
/// characters become `\[uXXXX]`, which groff and mandoc both read without a preprocessor).
enum Roff {
    static let width = 80

    /// Text for a roff text line. Every hyphen-minus becomes `\-`, so that flags and commands
    /// copied from the rendered page are still ASCII.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.value > 0x7E || (scalar.value < 0x20 && scalar != "\n"):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }
    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// Prose with light markup: `code` is set in bold, and so are flags (`--scope`, `-o`) that
    /// stand on their own. One sentence per input line, wrapped to 80 bytes.
    static func prose(_ text: String) -> String {
        var lines: [String] = []
        for sentence in sentences(text) {
            lines += wrap(words(sentence).map(markup))
        }
        return lines.map(guarded).joined(separator: "\n") + "\n"
    }

    /// Already formatted words, filled into input lines of at most 80 bytes.
    static func wrap(_ words: [String]) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty, line.utf8.count + 1 + word.utf8.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A text line must not start with `.` or `'`, which would make it a request.
    static func guarded(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    /// Splits after `. ` when a letter or a backquote follows, except after an abbreviation
    /// such as "e.g.": where a sentence ends, so that roff spaces sentences correctly (it
    /// knows a sentence ends only at the end of an input line) and diffs stay small.
    static func sentences(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            current.append(chars[i])
            let lastWord = current.split(separator: " ").last ?? ""
            if chars[i] == ".", i + 2 < chars.count, chars[i + 1] == " ",
               chars[i + 2].isLetter || chars[i + 2] == "`", !lastWord.dropLast().contains(".") {
                result.append(current)
                current = ""
                i += 1  // the space
            }
            i += 1
        }
        if current.contains(where: { $0 != " " }) { result.append(current) }
        return result
    }

    /// Words, keeping a `code span` with spaces in it together as one word.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inCode = false
        for c in text {
            if c == "`" { inCode.toggle() }
            if c == " " || c == "\n", !inCode {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// One word of prose: `code` in bold; a flag in bold, with its trailing punctuation plain.
    static func markup(_ word: String) -> String {
        if word.contains("`") {
            var out = ""
            var inCode = false
            var span = ""
            for c in word {
                if c == "`" {
                    out += inCode ? bold(span) : escape(span)
                    span = ""
                    inCode.toggle()
                } else {
                    span.append(c)
                }
            }
            return out + escape(span)
        }
        let body = word.prefix { $0 != "," && $0 != ";" && $0 != ")" && $0 != ":" }
        let flag = body.hasSuffix(".") ? body.dropLast() : body
        if isFlag(flag) { return bold(String(flag)) + escape(String(word.dropFirst(flag.count))) }
        return escape(word)
    }

    /// `--long-name`, `--long=value` or `-x`.
    static func isFlag(_ word: Substring) -> Bool {
        let name = word.hasPrefix("--") ? word.dropFirst(2) : word.hasPrefix("-") && word.count == 2 ? word.dropFirst() : ""
        guard let first = name.first, first.isLetter, first.isASCII else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "=" || $0 == "_") }
    }
}
