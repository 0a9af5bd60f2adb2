import FoundationEssentials

/// The provider's words in an answer meant for a browser, for one line of a message: an OAuth
/// error (RFC 6749 §5.2), or the message of an HTML error page (Keycloak puts it in
/// `#kc-error-message`: `Client not found.`, `Invalid parameter: redirect_uri`), else the
/// page's visible text.
///
/// The body is hostile: only its first `scanLimit` bytes are read, markup, scripts and
/// character references never reach the terminal (control, C1 and bidirectional-override
/// characters are dropped), and the result is one line of at most `textLimit` characters.
public enum ErrorPageText {
    static let scanLimit = 64 * 1024
    static let textLimit = 200

    /// The words, or nil when there are none worth showing.
    public static func words(in body: [UInt8]) -> String? {
        let head = Array(body.prefix(scanLimit))
        if let oauth = try? JSONDecoder().decode(OAuthErrorResponse.self, from: Data(head)) { return oauth.summary }
        let scalars = Array(String(decoding: head, as: UTF8.self).unicodeScalars)
        if scalars.first(where: { !$0.properties.isWhitespace }) == "{" { return nil }  // JSON, but not an OAuth error
        let tokens = HTMLTokens(scalars)
        let text = clean(tokens.message() ?? tokens.visibleText())
        return text.isEmpty ? nil : text
    }

    /// One line: character references decoded, whitespace collapsed, nothing a terminal would act on.
    static func clean(_ raw: String) -> String {
        var out = ""
        var space = false
        for scalar in decodeReferences(raw).unicodeScalars {
            if scalar.properties.isWhitespace {
                space = !out.isEmpty
                continue
            }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value) { continue }
            if space { out.unicodeScalars.append(" ") }
            space = false
            out.unicodeScalars.append(scalar)
            if out.unicodeScalars.count > textLimit { break }
        }
        return Sanitize.oneLine(out, limit: textLimit)
    }

    static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]

    /// `&amp;`, `&#39;`, `&#x27;` and the like; anything else is left as it is.
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            if let value = reference(String(name)) {
                out += value
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    private static func reference(_ name: String) -> String? {
        if let value = named[name.lowercased()] { return value }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let number = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return number.flatMap { Unicode.Scalar($0) }.map { String(Character($0)) }
    }
}
