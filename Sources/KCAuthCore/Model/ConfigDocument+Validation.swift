/// What may be written to the configuration file. A value is one line of text: a line break in a
/// client id or CA path (from a flag, the environment or a library caller) would otherwise start
/// a new `[section]` or `key = value` of the attacker's choosing, read back by every later command.
extension ConfigDocument {
    /// The text to write, after checking every section name, key and value; a `configuration`
    /// error naming the offending setting (and nothing written) otherwise. `path` names the file.
    public func serialized(path: String) throws -> String {
        var profile: String?
        for line in lines {
            switch line {
            case .section(let name):
                guard ProfileName.isValid(name) else {
                    throw refusal(path, "'\(Sanitize.oneLine(name))' is not a valid profile name")
                }
                profile = name
            case .entry(let key, let value):
                guard Self.isValidKey(key) else { throw refusal(path, "'\(Sanitize.oneLine(key))' is not a valid key") }
                let place = profile.map { "profile [\($0)]: \(key)" } ?? key
                if let bad = Self.firstControlCharacter(in: value) {
                    throw refusal(path, "\(place): the value contains the control character \(bad)")
                }
                // Whitespace at either end would be trimmed on the next read: refuse rather than
                // write something that reads back differently.
                guard Self.trimmed(Substring(value).unicodeScalars) == value else {
                    throw refusal(path, "\(place): the value begins or ends with whitespace")
                }
            case .other(let text):
                let trimmed = text.trimmingWhitespace()
                // A CR inside a comment is harmless; one at its end would be read as the line ending.
                guard trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";"),
                      !text.unicodeScalars.contains("\n"), text.unicodeScalars.last != "\r" else {
                    throw refusal(path, "a comment line would not read back as a comment")
                }
            }
        }
        return text
    }

    /// Without the spaces, tabs and CRs at either end, scalar by scalar (so that a combining
    /// mark after a space is not taken for part of the space).
    static func trimmed(_ scalars: Substring.UnicodeScalarView) -> String {
        func blank(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s == "\r" }
        var view = scalars
        while let first = view.first, blank(first) { view.removeFirst() }
        while let last = view.last, blank(last) { view.removeLast() }
        return String(view)
    }

    /// Letters, digits and '_' (`client_id`, `default_profile`).
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// The first character that has no place in a one-line setting, as `U+XXXX`: C0 and C1
    /// controls and DEL (tab included: it is whitespace the parser trims), and the Unicode line
    /// and paragraph separators, which some readers treat as line breaks.
    static func firstControlCharacter(in text: String) -> String? {
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                let hex = String(v, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return nil
    }

    private func refusal(_ path: String, _ what: String) -> KCAuthError {
        KCAuthError(.configuration, "\(path): not saved: \(what)",
                    hint: "give the value without line breaks or control characters; the file was left as it was")
    }
}
