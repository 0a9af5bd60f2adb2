/// A secret kcauth holds only to send it on (a CI platform's request token, a client assertion).
/// Every textual form is redacted, so it cannot end up in a message, a log line or a debug print
/// by accident; `value` is read only to put it on the wire.
public struct RedactedSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String
    /// What it is, for its redacted form (`client_assertion`).
    public let label: String

    public init(_ value: String, label: String) {
        self.value = value
        self.label = label
    }

    public var description: String { "[\(label): \(value.utf8.count) bytes]" }
    public var debugDescription: String { description }
}
