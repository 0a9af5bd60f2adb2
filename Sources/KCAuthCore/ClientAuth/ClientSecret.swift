/// A confidential client's secret (RFC 6749 §2.3.1), held as a ``Secret``: every textual form
/// is redacted, and the value leaves only through `secret.reveal()`, at the wire.
public struct ClientSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let secret: Secret

    public init(_ value: String) {
        secret = Secret(.clientSecret, value)
    }

    public var description: String { secret.redacted }
    public var debugDescription: String { secret.redacted }
}
