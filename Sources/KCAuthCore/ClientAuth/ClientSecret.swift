/// A confidential client's secret (RFC 6749 §2.3.1). A wrapper so that it cannot end up in a
/// message, a log line or a debug print by accident: every textual form is redacted.
public struct ClientSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself; read it only to put it on the wire.
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<client secret>" }
    public var debugDescription: String { "<client secret>" }
}
