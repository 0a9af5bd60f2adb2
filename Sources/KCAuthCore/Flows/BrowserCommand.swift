/// `--browser-command 'CMD ARGS %s'` (issue 11 #4): a browser command with arguments, e.g. a
/// private window or another browser profile, split into words the way a POSIX shell would
/// (quotes and backslashes) but never run by a shell, so nothing in it or in the URL is expanded.
public struct BrowserCommand: Sendable, Equatable {
    /// The text as the person wrote it (what the profile remembers).
    public let text: String
    /// The words, before `%s` is replaced.
    public let words: [String]

    /// Splits `text`; throws `usage` for an empty command or an unterminated quote. `origin`
    /// names where it came from, for the message.
    public init(_ text: String, origin: String = "--browser-command") throws {
        self.text = text
        words = try Self.split(text, origin: origin)
        guard !words.isEmpty else {
            throw KCAuthError(.usage, "\(origin) names no program", hint: "e.g. --browser-command 'firefox --private-window %s'")
        }
    }

    /// The argument vector for `url`: every `%s` becomes the URL and `%%` a single `%`; without
    /// any `%s` the URL is appended as the last argument (like `$BROWSER`).
    public func arguments(for url: String) -> [String] {
        var substituted = false
        var argv = words.map { word -> String in
            let (text, did) = Self.substitute(word, url: url)
            substituted = substituted || did
            return text
        }
        if !substituted { argv.append(url) }
        return argv
    }

    /// POSIX shell word splitting without expansions (XCU 2.2 Quoting): blanks separate words;
    /// `'…'` is literal; in `"…"` a backslash escapes only `\ " $ \``; outside quotes a backslash
    /// escapes the next character. `''` is an empty word, as in a shell.
    static func split(_ text: String, origin: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = Array(text).makeIterator()
        while let c = iterator.next() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                var closed = false
                while let d = iterator.next() {
                    if d == "'" { closed = true; break }
                    current.append(d)
                }
                guard closed else { throw KCAuthError(.usage, "\(origin) has an unterminated ' quote") }
            case "\"":
                inWord = true
                var closed = false
                while let d = iterator.next() {
                    if d == "\"" { closed = true; break }
                    if d == "\\" {
                        guard let e = iterator.next() else { break }
                        if !["\\", "\"", "$", "`"].contains(e) { current.append("\\") }
                        current.append(e)
                    } else {
                        current.append(d)
                    }
                }
                guard closed else { throw KCAuthError(.usage, "\(origin) has an unterminated \" quote") }
            case "\\":
                inWord = true
                guard let d = iterator.next() else { throw KCAuthError(.usage, "\(origin) ends with a lone backslash") }
                if d != "\n" { current.append(d) }
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// `%s` → the URL, `%%` → `%`; any other `%` stays as it is.
    public static func substitute(_ word: String, url: String) -> (String, Bool) {
        guard word.contains("%") else { return (word, false) }
        var result = ""
        var substituted = false
        var chars = Array(word)[...]
        while let c = chars.popFirst() {
            if c == "%", let next = chars.first, next == "s" || next == "%" {
                chars.removeFirst()
                if next == "s" { result += url; substituted = true } else { result += "%" }
            } else {
                result.append(c)
            }
        }
        return (result, substituted)
    }
}
