/// kcauth's hand-editable configuration file: INI style, one `[NAME]` section per profile, keys
/// before the first section are global. Comments (`#`, `;`) and layout survive a rewrite, because
/// people edit this file by hand.
///
/// ```
/// # default_profile = work
/// [default]
/// issuer = https://sso.example.com/realms/demo
/// client_id = kcauth
/// scope = openid profile email
/// port = 0
/// ```
public struct ConfigDocument: Sendable, Equatable {
    enum Line: Sendable, Equatable {
        case other(String)                       // blank or comment, kept as written
        case section(String)
        case entry(key: String, value: String)
    }

    var lines: [Line]
    /// How the file ended its lines and whether it began with a byte order mark: a file edited on
    /// Windows is written back the way it came (RFC 5198 allows both; editors there default to them).
    var usesCRLF = false
    var hasByteOrderMark = false

    public init() { lines = [] }

    /// Parses the file; `path` only names the file in error messages. LF or CRLF line endings and
    /// a leading UTF-8 byte order mark are accepted; control characters outside comments are not.
    public init(parsing text: String, path: String) throws {
        lines = []
        var sections = Set<String>()
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" {
            hasByteOrderMark = true
            scalars.removeFirst()
        }
        // Split on U+000A itself: as Characters, "\r\n" is one grapheme that never equals "\n".
        let rawLines = scalars.split(separator: "\n", omittingEmptySubsequences: false)
        usesCRLF = rawLines.count > 1 && rawLines[0].last == "\r"
        for (index, scalarLine) in rawLines.enumerated() {
            var rawScalars = scalarLine
            // The line ending, and any stray CRs before it: kept, they would change on every rewrite.
            while rawScalars.last == "\r" { rawScalars.removeLast() }
            let raw = String(rawScalars)
            let line = raw.trimmingWhitespace()
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") {
                lines.append(.other(raw))
                continue
            }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw Self.error(path, number, "a section header must end with ']'") }
                let name = String(line.dropFirst().dropLast()).trimmingWhitespace()
                guard ProfileName.isValid(name) else { throw Self.error(path, number, "'\(Sanitize.oneLine(name))' is not a valid profile name (letters, digits, '.', '_', '-')") }
                guard sections.insert(name).inserted else { throw Self.error(path, number, "profile [\(name)] appears twice") }
                lines.append(.section(name))
            } else if let eq = line.unicodeScalars.firstIndex(of: "=") {
                // Split and trim by scalars, not Characters: "= \u{301}x" is "=", " \u{301}" and
                // "x" as Characters, so a value starting with a combining mark would not read back.
                let key = Self.trimmed(line.unicodeScalars[..<eq])
                let value = Self.trimmed(line.unicodeScalars[line.unicodeScalars.index(after: eq)...])
                guard Self.isValidKey(key) else {
                    throw Self.error(path, number, "'\(Sanitize.oneLine(key))' is not a valid key")
                }
                if let bad = Self.firstControlCharacter(in: value) {
                    throw Self.error(path, number, "the value of '\(key)' contains the control character \(bad)")
                }
                lines.append(.entry(key: key, value: value))
            } else {
                throw Self.error(path, number, "expected 'key = value' or '[profile]', found '\(Sanitize.oneLine(line, limit: 60))'")
            }
        }
        while case .other(let s)? = lines.last, s.isEmpty { lines.removeLast() }
        // Nothing left to write: no line-ending style or BOM to keep (they would not read back).
        if lines.isEmpty { usesCRLF = false; hasByteOrderMark = false }
    }

    /// The document as file text, unchecked: what is written goes through `serialized(path:)`,
    /// which refuses values that would break the file.
    public var text: String {
        let end = usesCRLF ? "\r\n" : "\n"
        let body = lines.map { Self.render($0) + end }.joined()
        return hasByteOrderMark && !body.isEmpty ? "\u{FEFF}" + body : body
    }

    public var profileNames: [String] {
        lines.compactMap { if case .section(let n) = $0 { return n } else { return nil } }
    }

    /// A key's value in a profile's section (`profile` nil: the global part).
    public func value(_ key: String, profile: String?) -> String? {
        guard let range = range(of: profile) else { return nil }
        for i in range { if case .entry(let k, let v) = lines[i], k == key { return v } }
        return nil
    }

    /// Sets (or, with nil, removes) a key, keeping everything else as it was. The value is not
    /// checked here (callers stay simple); `serialized(path:)` refuses to write a document whose
    /// key, value or profile name could inject lines, so nothing unchecked reaches the file.
    public mutating func set(_ key: String, _ value: String?, profile: String?) {
        if range(of: profile) == nil, let profile {
            if !lines.isEmpty { lines.append(.other("")) }
            lines.append(.section(profile))
        }
        let range = range(of: profile)!
        if let i = range.first(where: { if case .entry(let k, _) = lines[$0] { return k == key } else { return false } }) {
            if let value { lines[i] = .entry(key: key, value: value) } else { lines.remove(at: i) }
        } else if let value {
            // Insert after the section's last entry, before trailing blank lines and comments.
            var at = range.upperBound
            while at > range.lowerBound, case .other = lines[at - 1] { at -= 1 }
            lines.insert(.entry(key: key, value: value), at: at)
        }
    }

    /// The line indices that belong to a section (after its header), or to the global part.
    private func range(of profile: String?) -> Range<Int>? {
        var start: Int?
        if profile == nil { start = 0 }
        for (i, line) in lines.enumerated() {
            if case .section(let n) = line {
                if let s = start { return s..<i }
                if n == profile { start = i + 1 }
            }
        }
        return start.map { $0..<lines.count }
    }

    static func render(_ line: Line) -> String {
        switch line {
        case .other(let s): return s
        case .section(let n): return "[\(n)]"
        case .entry(let k, let v): return "\(k) = \(v)"
        }
    }

    static func error(_ path: String, _ line: Int, _ what: String) -> KCAuthError {
        KCAuthError(.configuration, "\(path):\(line): \(what)", hint: "fix the file by hand; kcauth never rewrites a file it cannot read")
    }
}
