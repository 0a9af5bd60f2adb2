import Glibc
import KCAuthCore

/// The real ``ForwardConnector``: the Unix socket ssh forwarded (``ForwardSocket``).
public struct SocketForwardConnector: ForwardConnector {
    public init() {}

    public func refusal(path: String) -> String? { ForwardSocket.refusal(path: path) }

    public func exchange(path: String, line: String, answerMilliseconds: Int) throws -> ForwardReply {
        let fd = try ForwardSocket.connect(path: path, seconds: 10)
        defer { close(fd) }
        guard ForwardSocket.writeLine(fd, line, milliseconds: 10_000) else { return .notTaken }
        return ForwardSocket.readLine(fd, milliseconds: answerMilliseconds).map(ForwardReply.answer) ?? .noAnswer
    }
}
