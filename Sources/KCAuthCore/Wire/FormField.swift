/// One field of a form body or of a URL's query (RFC 6749 Appendix B), its value plain or a
/// ``Secret``: a request is built from these, so a trace shows it with its secrets redacted and
/// nothing has to search its text.
public struct FormField: Sendable, Equatable {
    public var name: String
    public var value: WireText

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = WireText(value)
    }

    public init(_ name: String, _ secret: Secret) {
        self.name = name
        self.value = WireText(secret)
    }

    /// The value as it goes on the wire (unencoded).
    public func reveal() -> String { value.reveal() }

    /// Whether the value is a secret.
    public var isSecret: Bool { value.holdsSecret }
}

extension Array where Element == FormField {
    /// `application/x-www-form-urlencoded` (RFC 6749 Appendix B): `name=value&…`, every value
    /// percent-encoded, secrets kept as secret parts.
    public var encoded: WireText {
        var out = WireText(parts: [])
        for (i, field) in enumerated() {
            out.append((i == 0 ? "" : "&") + FormEncoding.escape(field.name) + "=")
            for part in field.value.parts {
                switch part {
                case .plain(let text): out.append(FormEncoding.escape(text))
                case .secret(let secret, _): out.append(secret, escaped: true)
                }
            }
        }
        return out
    }

    /// The first field called `name`.
    public subscript(name: String) -> FormField? { first { $0.name == name } }
}
