/// The remote side of a forward: the socket ssh forwarded from the laptop, one request line out
/// and one answer line back.
public protocol ForwardConnector: Sendable {
    /// Why the socket at `path` must not be used (someone else could have placed it), or nil.
    func refusal(path: String) -> String?
    /// Sends `line` and waits up to `answerMilliseconds` for the answer. Throws when the socket
    /// cannot be reached.
    func exchange(path: String, line: String, answerMilliseconds: Int) throws -> ForwardReply
}
