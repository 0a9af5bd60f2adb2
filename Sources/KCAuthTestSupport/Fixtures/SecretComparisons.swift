import KCAuthCore

// Tests compare secrets with the values they scripted, and script secrets as literals; the
// product never compares a secret with text (only `reveal()` takes the value out) and has no
// literal secrets.

extension Secret: ExpressibleByStringLiteral {
    /// A scripted value in a test (`CallbackJudge(expectedState: "s-1", …)`).
    public init(stringLiteral value: String) { self.init(.value, value) }
}

public func == (secret: Secret, text: String) -> Bool { secret.reveal() == text }
public func != (secret: Secret, text: String) -> Bool { secret.reveal() != text }
public func == (text: String, secret: Secret) -> Bool { secret.reveal() == text }
public func != (text: String, secret: Secret) -> Bool { secret.reveal() != text }
public func == (secret: Secret?, text: String?) -> Bool { secret?.reveal() == text }
public func != (secret: Secret?, text: String?) -> Bool { secret?.reveal() != text }
public func == (text: String?, secret: Secret?) -> Bool { secret?.reveal() == text }
public func == (wire: WireText, text: String?) -> Bool { wire.reveal() == text }
public func == (text: String, wire: WireText) -> Bool { wire.reveal() == text }

extension Optional where Wrapped == Secret {
    /// The value as sent, or nil.
    public var revealed: String? { self?.reveal() }
}

/// The query of a URL as sent.
public func queryParameters(of url: WireText) -> [String: String] { queryParameters(of: url.reveal()) }

/// Form fields by name, as sent (the first of a repeated name).
public func dictionary(_ fields: [FormField]) -> [String: String] {
    Dictionary(fields.map { ($0.name, $0.reveal()) }, uniquingKeysWith: { first, _ in first })
}
