import Glibc
import KCAuthCore

/// The real ``ForwardConnector``: the Unix socket ssh forwarded (``ForwardSocket``).
public struct SocketForwardConnector: ForwardConnector {
    public init() {}

    public func inspect(path: String) -> ForwardSocketState { ForwardSocket.inspect(path: path) }

    public func removeDead(path: String) { ForwardSocket.removeDead(path: path) }

    public func exchange(path: String, line: String, answerMilliseconds: Int) throws -> ForwardReply {
        let fd = try ForwardSocket.connect(path: path, seconds: 10)
        defer { close(fd) }
        guard ForwardSocket.writeLine(fd, line, milliseconds: 10_000) else { return .notTaken }
        switch ForwardSocket.read(fd, milliseconds: answerMilliseconds) {
        case .line(let answer): return .answer(answer)
        case .closedEmpty: return .closed
        case .failed: return .noAnswer
        }
    }
}
