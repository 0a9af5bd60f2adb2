import FoundationEssentials
@testable import KCAuthCLI
import KCAuthTestSupport

/// Reading the generated man page and completion scripts back, for the consistency tests.
enum Docs {
    /// The repository root, from this file's path (Tests/KCAuthDocGenTests/DocsSupport.swift).
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static func read(_ relative: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(filePath: root + "/" + relative)), as: UTF8.self)
    }

    /// Roff source as the words a reader sees: escapes resolved, font changes dropped.
    static func plain(_ roff: String) -> String {
        var out = ""
        var chars = roff[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "\\", let next = chars.first else { out.append(c); continue }
            chars = chars.dropFirst()
            switch next {
            case "-": out += "-"
            case "e": out += "\\"
            case "&", "|": break
            case "f": chars = chars.dropFirst()  // \fB, \fI, \fR
            case "[":
                let name = chars.prefix { $0 != "]" }
                chars = chars.dropFirst(name.count + 1)
                if name.hasPrefix("u"), let v = UInt32(name.dropFirst(), radix: 16), let s = Unicode.Scalar(v) { out.unicodeScalars.append(s) }
            default: out.append(next)
            }
        }
        return out
    }

    /// `--long` and `-x` tokens of a text (not `x-y`, not `---`).
    static func flags(in text: Substring) -> [String] {
        var found: [String] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let before: Character? = i > 0 ? chars[i - 1] : nil
            let startsWord = before.map { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "/" || $0 == ".") } ?? true
            if chars[i] == "-", startsWord {
                var j = i + 1
                if j < chars.count, chars[j] == "-" { j += 1 }
                var name = ""
                while j < chars.count, chars[j].isASCII, chars[j].isLetter || chars[j].isNumber || chars[j] == "-" {
                    name.append(chars[j]); j += 1
                }
                let long = j - name.count - i == 2
                if let first = name.first, first.isLetter, long || name.count == 1 {
                    found.append((long ? "--" : "-") + name)
                }
                i = j
            } else {
                i += 1
            }
        }
        return found
    }

    /// Whether `kcauth NAME` accepts a flag spelled like this.
    static func accepts(_ command: String?, _ flag: String) -> Bool {
        let spec = command.flatMap(CommandTable.command(named:))
        // `kcauth ssh -p 2222 host`: a single-dash word is ssh's, passed on (or refused by name).
        if spec?.shortOptionsStartCommandLine == true, flag.hasPrefix("-"), !flag.hasPrefix("--") { return true }
        let options = spec?.options ?? CommandTable.topLevelOptions
        return options.contains { Completions.spellings($0).contains(flag) }
    }

    static func acceptedByAnyCommand(_ flag: String) -> Bool {
        accepts(nil, flag) || CommandTable.commands.contains { accepts($0.name, flag) }
    }

    /// The lines of `text` from the first line equal to `start` up to (not including) the
    /// first line after it that equals `end`.
    static func block(_ text: String, from start: String, to end: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let i = lines.firstIndex(where: { $0 == start }) else { return [] }
        let rest = lines[(i + 1)...]
        return Array(rest.prefix { $0 != end })
    }
}
