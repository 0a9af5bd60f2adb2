/// The laptop's socket of a forward (`ssh`, `forward-agent`): one connection at a time, only
/// from processes of this user, one request line and one answer line each.
public protocol ForwardListener: Sendable {
    /// Where it listens.
    var path: String { get }
    /// Answers one connection, if one arrives within `milliseconds`: `answer` turns its request
    /// into the answer line (an unreadable request is refused without it).
    func serveOne(milliseconds: Int32, answer: (ForwardMessage.Request) -> String)
    /// Stops listening and removes the socket.
    func close()
}
