/// The laptop's socket of a forward (`ssh`, `forward-agent`): only connections from processes of
/// this user, one request line and one answer line each. Connections are served side by side
/// (a bounded number at a time), each with a short deadline for its request, so that a client
/// that connects and says nothing never delays another.
public protocol ForwardListener: Sendable {
    /// Where it listens.
    var path: String { get }
    /// Takes the connections that arrive within `milliseconds` and serves each apart, without
    /// waiting for its request: `answer` turns a request into the answer line (an unreadable
    /// request is refused without it; a connection closed before it says anything, as a probe
    /// of the remote side does, gets nothing).
    func serve(milliseconds: Int32, answer: @escaping @Sendable (ForwardMessage.Request) -> String)
    /// Stops listening and removes the socket; connections still waiting for their request are
    /// dropped, and answers under way are finished first.
    func close()
}
