/// Text that goes on the wire with secrets inside — a URL whose query carries `state`, an
/// `Authorization` header's value, a form body — built from parts, each plain or a ``Secret``.
/// Printed (a trace, a message) its secret parts are redacted; ``reveal()`` joins the real
/// text, at the wire.
///
/// Made with an interpolation that keeps each part's kind: `"Bearer \(token)"` with `token` a
/// `Secret` is a plain part and a secret one.
public struct WireText: Sendable, Equatable {
    public enum Part: Sendable, Equatable {
        case plain(String)
        /// `escaped`: on the wire the value is percent-encoded (a query or form value, RFC 3986
        /// §2.1); printed, it is the secret's redacted form either way.
        case secret(Secret, escaped: Bool)
    }

    public private(set) var parts: [Part]

    public init(_ plain: String) { parts = plain.isEmpty ? [] : [.plain(plain)] }

    public init(_ secret: Secret) { parts = [.secret(secret, escaped: false)] }

    public init(parts: [Part]) { self.parts = parts }

    /// The text as it goes on the wire.
    public func reveal() -> String {
        var out = ""
        for part in parts {
            switch part {
            case .plain(let text): out += text
            case .secret(let secret, let escaped): out += escaped ? FormEncoding.escape(secret.reveal()) : secret.reveal()
            }
        }
        return out
    }

    /// The text with every secret part redacted.
    public var redacted: String {
        var out = ""
        for part in parts {
            switch part {
            case .plain(let text): out += text
            case .secret(let secret, _): out += secret.redacted
            }
        }
        return out
    }

    public var isEmpty: Bool { parts.isEmpty }

    /// The same text on the wire, however it is split into parts.
    public static func == (a: WireText, b: WireText) -> Bool { a.reveal() == b.reveal() }

    /// Whether a part is a secret.
    public var holdsSecret: Bool { parts.contains { if case .secret = $0 { true } else { false } } }

    public mutating func append(_ text: String) { if !text.isEmpty { parts.append(.plain(text)) } }

    public mutating func append(_ secret: Secret, escaped: Bool = false) { parts.append(.secret(secret, escaped: escaped)) }

    public mutating func append(_ other: WireText) { parts += other.parts }

    public static func + (a: WireText, b: WireText) -> WireText { WireText(parts: a.parts + b.parts) }
}

extension WireText: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: Interpolation) { parts = stringInterpolation.parts }

    public struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { if !literal.isEmpty { parts.append(.plain(literal)) } }
        public mutating func appendInterpolation(_ text: String) { appendLiteral(text) }
        public mutating func appendInterpolation<N: BinaryInteger>(_ number: N) { appendLiteral(String(number)) }
        public mutating func appendInterpolation(_ secret: Secret) { parts.append(.secret(secret, escaped: false)) }
        public mutating func appendInterpolation(_ text: WireText) { parts += text.parts }
    }
}

extension WireText: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { redacted }
    public var debugDescription: String { redacted }
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted], displayStyle: .struct) }
}
