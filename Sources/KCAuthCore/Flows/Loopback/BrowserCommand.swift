import KCAuthContract

/// The `browser_command` setting, `CMD ARGS %s`: a browser command with arguments, e.g. a
/// private window or another browser profile, split into words the way a POSIX shell would
/// (quotes and backslashes) but never run by a shell, so nothing in it or in the URL is expanded.
public struct BrowserCommand: Sendable, Equatable {
    /// The text as the person wrote it (what the profile remembers).
    public let text: String
    /// The words, before `%s` is replaced.
    public let words: [String]

    /// Splits `text`; throws `usage` for an empty command or an unterminated quote. `origin`
    /// names where it came from, for the message (the caller's words: a key, an option).
    public init(_ text: String, origin: String) throws {
        self.text = text
        words = try Self.split(text, origin: origin)
        guard !words.isEmpty else {
            throw KCAuthError(.usage, "\(origin) names no program", remedy: .exampleBrowserCommand)
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

    /// POSIX shell word splitting without expansions: the contract's ``BrowserCommandRule``
    /// (the front checks the profile's `browser_command` with it too).
    static func split(_ text: String, origin: String) throws -> [String] {
        switch BrowserCommandRule.split(text) {
        case .success(let words): return words
        case .failure(.noProgram): return []
        case .failure(.unterminatedSingleQuote): throw KCAuthError(.usage, "\(origin) has an unterminated ' quote")
        case .failure(.unterminatedDoubleQuote): throw KCAuthError(.usage, "\(origin) has an unterminated \" quote")
        case .failure(.loneBackslash): throw KCAuthError(.usage, "\(origin) ends with a lone backslash")
        }
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
