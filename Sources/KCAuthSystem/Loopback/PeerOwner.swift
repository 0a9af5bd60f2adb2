/// Who owns the client's socket of a connection to the listener, as far as the kernel said.
enum PeerOwner: Equatable, Sendable {
    case user(UInt32)
    /// The owner could not be established (why, for diagnostics): such a peer is refused.
    case unknown(String)
}
