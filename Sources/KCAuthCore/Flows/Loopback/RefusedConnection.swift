/// A connection to the loopback listener that was refused because it came from another user
/// (`LoopbackPeer`). Said at once, so the person does not wait out the timeout for a browser
/// whose connection will never be served.
public struct RefusedConnection: Sendable, Equatable {
    /// The owner of the client's socket; nil when it could not be established (refused too).
    public var uid: UInt32?

    public init(uid: UInt32?) { self.uid = uid }
}
