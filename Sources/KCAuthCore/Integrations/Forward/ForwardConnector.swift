/// The remote side of a forward: the socket ssh forwarded from the laptop, one request line out
/// and one answer line back.
public protocol ForwardConnector: Sendable {
    /// What is at `path` on this host (a connection attempt tells live from dead).
    func inspect(path: String) -> ForwardSocketState
    /// Removes a dead forward's socket at `path` (checked again first: still the user's, still
    /// dead), and its directory when it is a `kcauth ssh` one (`kcauth-forward.*`) and empty.
    func removeDead(path: String)
    /// Sends `line` and waits up to `answerMilliseconds` for the answer. Throws when the socket
    /// cannot be reached.
    func exchange(path: String, line: String, answerMilliseconds: Int) throws -> ForwardReply
}
