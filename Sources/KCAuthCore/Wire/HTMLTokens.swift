/// An HTML page as tags and text, enough to find an error message in it: no DOM, no nesting
/// rules, every loop bounded by the input.
struct HTMLTokens {
    enum Token: Equatable {
        case open(name: String, attributes: String)
        case close(name: String)
        case text(String)
    }

    private(set) var tokens: [Token] = []

    /// Elements whose text is never shown.
    static let hidden: Set<String> = ["script", "style", "head", "title", "template", "noscript"]
    /// Elements that end a message's text (an inline one such as `b` does not).
    static let blocks: Set<String> = ["p", "div", "span", "li", "td", "section", "article", "main", "body", "html",
                                      "h1", "h2", "h3", "h4", "h5", "h6", "br", "form", "ul", "ol", "table"]

    init(_ s: [Unicode.Scalar]) {
        var i = 0
        var text = ""
        func flush() {
            if !text.isEmpty { tokens.append(.text(text)) }
            text = ""
        }
        while i < s.count {
            guard s[i] == "<" else {
                text.unicodeScalars.append(s[i])
                i += 1
                continue
            }
            flush()
            if Self.starts(s, at: i, with: "<!--") {
                i = Self.find(s, "-->", from: i + 4).map { $0 + 3 } ?? s.count
                continue
            }
            guard let end = s[i...].firstIndex(of: ">") else { break }
            let inside = String(String.UnicodeScalarView(s[(i + 1)..<end]))
            i = end + 1
            let closing = inside.hasPrefix("/")
            let body = closing ? inside.dropFirst() : Substring(inside)
            let name = String(body.prefix { $0.isLetter || $0.isNumber }).lowercased()
            guard !name.isEmpty else { continue }  // <!DOCTYPE>, <?xml?>
            if closing {
                tokens.append(.close(name: name))
            } else {
                tokens.append(.open(name: name, attributes: String(body.dropFirst(name.count))))
                // The text of a script or style is not markup: skip to its end tag.
                if name == "script" || name == "style" {
                    i = Self.find(s, "</" + name, from: i) ?? s.count
                }
            }
        }
        flush()
    }

    /// The text of the element with `id="kc-error-message"` (Keycloak's error page), up to the
    /// end of the first block that holds any.
    func message() -> String? {
        guard let start = tokens.firstIndex(where: {
            if case .open(_, let attributes) = $0 { Self.id(in: attributes) == "kc-error-message" } else { false }
        }) else { return nil }
        var text = ""
        for token in tokens[(start + 1)...] {
            switch token {
            case .text(let t): text += t
            case .close(let name), .open(let name, _):
                if Self.blocks.contains(name), Self.hasWords(text) { return text }
            }
        }
        return Self.hasWords(text) ? text : nil
    }

    static func hasWords(_ text: String) -> Bool { text.unicodeScalars.contains { !$0.properties.isWhitespace } }

    /// Every text outside the hidden elements, a space between elements.
    func visibleText() -> String {
        var hiddenDepth = 0
        var parts: [String] = []
        var length = 0
        for token in tokens {
            switch token {
            case .open(let name, _) where Self.hidden.contains(name): hiddenDepth += 1
            case .close(let name) where Self.hidden.contains(name): hiddenDepth = max(0, hiddenDepth - 1)
            case .text(let t) where hiddenDepth == 0:
                parts.append(t)
                length += t.count
                if length > ErrorPageText.textLimit * 4 { return parts.joined(separator: " ") }
            default: break
            }
        }
        return parts.joined(separator: " ")
    }

    /// The value of an `id` attribute, quoted or not.
    static func id(in attributes: String) -> String? {
        let scalars = Array(attributes.unicodeScalars)
        var i = 0
        while let found = find(scalars, "id", from: i) {
            i = found + 2
            let before = found == 0 ? " " : scalars[found - 1]
            guard before.properties.isWhitespace else { continue }
            var j = i
            while j < scalars.count, scalars[j].properties.isWhitespace { j += 1 }
            guard j < scalars.count, scalars[j] == "=" else { continue }
            j += 1
            while j < scalars.count, scalars[j].properties.isWhitespace { j += 1 }
            guard j < scalars.count else { return nil }
            let quote = scalars[j] == "\"" || scalars[j] == "'" ? scalars[j] : nil
            if quote != nil { j += 1 }
            var value = String.UnicodeScalarView()
            while j < scalars.count, quote.map({ scalars[j] != $0 }) ?? !(scalars[j].properties.isWhitespace || scalars[j] == "/") {
                value.append(scalars[j])
                j += 1
            }
            return String(value)
        }
        return nil
    }

    static func starts(_ s: [Unicode.Scalar], at i: Int, with prefix: String) -> Bool {
        starts(s, at: i, with: Array(prefix.unicodeScalars))
    }

    private static func starts(_ s: [Unicode.Scalar], at i: Int, with p: [Unicode.Scalar]) -> Bool {
        guard i + p.count <= s.count else { return false }
        for k in 0..<p.count where lower(s[i + k]) != p[k] { return false }
        return true
    }

    /// The first position at or after `from` where `needle` (lower case) starts, ASCII letters
    /// compared without case.
    static func find(_ s: [Unicode.Scalar], _ needle: String, from: Int) -> Int? {
        guard from >= 0 else { return nil }
        let p = Array(needle.unicodeScalars)
        var i = from
        while i < s.count {
            if starts(s, at: i, with: p) { return i }
            i += 1
        }
        return nil
    }

    private static func lower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        (65...90).contains(c.value) ? Unicode.Scalar(c.value + 32)! : c
    }
}
