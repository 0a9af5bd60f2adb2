/// Where a platform's signed client assertion comes from (`client_assertion_from`): read again
/// for every token request, since platforms issue short-lived ones. The text forms are
/// `github-actions`, `env:NAME`, `file:PATH` and `command:PROGRAM ARG...` (the command split like
/// `browser_command`, ``BrowserCommandRule``, and never run by a shell). The profile keeps this
/// text, never an assertion.
public enum AssertionSource: Sendable, Equatable, Codable {
    /// GitHub Actions' ID-token service (Forgejo and Gitea Actions share its contract).
    case githubActions
    /// An environment variable (GitLab CI's `id_tokens:` puts one in a variable of your choosing).
    case environment(String)
    /// A file the platform keeps fresh (a Kubernetes projected service-account token, spiffe-helper).
    case file(String)
    /// A program that prints one on stdout (argv, program first).
    case command([String])

    public enum Refusal: Error, Sendable, Equatable {
        /// Not one of the four forms.
        case unknownForm
        /// `env:` with no name, or a name that is not a variable's (letters, digits, `_`).
        case badVariableName
        /// `file:` with no path, or (in the configuration file) a relative one.
        case badPath
        /// `command:` whose words cannot be split, or that names no program.
        case badCommand(BrowserCommandRule.Refusal)
    }

    public static let githubActionsWord = "github-actions"
    static let environmentPrefix = "env:"
    static let filePrefix = "file:"
    static let commandPrefix = "command:"

    /// The four forms, for messages and help.
    public static let forms = ["github-actions", "env:NAME", "file:PATH", "command:PROGRAM ARG..."]

    /// The source `text` names; `absolutePath`: a `file:` path must start with `/` (the file's
    /// form; a command line's relative path is made absolute before it is kept).
    public static func parse(_ text: String, absolutePath: Bool = true) -> Result<AssertionSource, Refusal> {
        if text == githubActionsWord { return .success(.githubActions) }
        if let name = text.dropping(prefix: environmentPrefix) {
            guard isVariableName(name) else { return .failure(.badVariableName) }
            return .success(.environment(String(name)))
        }
        if let path = text.dropping(prefix: filePrefix) {
            guard !path.isEmpty, !absolutePath || path.hasPrefix("/") else { return .failure(.badPath) }
            return .success(.file(String(path)))
        }
        if let command = text.dropping(prefix: commandPrefix) {
            switch BrowserCommandRule.split(String(command)) {
            case .success(let words): return .success(.command(words))
            case .failure(let refusal): return .failure(.badCommand(refusal))
            }
        }
        return .failure(.unknownForm)
    }

    /// The text the profile keeps; ``parse(_:absolutePath:)`` reads it back as this source.
    public var text: String {
        switch self {
        case .githubActions: return Self.githubActionsWord
        case .environment(let name): return Self.environmentPrefix + name
        case .file(let path): return Self.filePrefix + path
        case .command(let words):
            var text = Self.commandPrefix
            var i = 0
            while i < words.count { text += (i == 0 ? "" : " ") + Self.quoted(words[i]); i += 1 }
            return text
        }
    }

    /// A word as a POSIX shell reads it back: as it is when it has only characters no shell
    /// treats specially, else in single quotes (a quote inside as `'\''`).
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || "_@%+=:,./-".utf8.contains(c)
        }
        if plain { return word }
        var out = "'"
        for scalar in word.unicodeScalars {
            if scalar == "'" { out += "'\\''" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "'"
    }

    /// POSIX's portable variable names: a letter or `_`, then letters, digits and `_`.
    static func isVariableName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
        return name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
        }
    }
}

private extension String {
    func dropping(prefix: String) -> Substring? {
        hasPrefix(prefix) ? self[index(startIndex, offsetBy: prefix.count)...] : nil
    }
}
