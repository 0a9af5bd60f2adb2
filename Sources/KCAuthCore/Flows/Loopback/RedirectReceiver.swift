/// Receives the authorization response on a loopback redirect URI (RFC 8252 §7.3).
public protocol RedirectReceiver: Sendable {
    /// Binds the listener (127.0.0.1 only; `port` 0 = ephemeral) and returns it, ready to accept.
    func bind(port: UInt16) throws -> any BoundRedirectListener
}
