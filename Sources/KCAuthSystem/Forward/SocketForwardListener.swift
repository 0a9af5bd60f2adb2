import Glibc
import KCAuthCore

/// The real ``ForwardListener``: a Unix socket (``ForwardSocket``), answering only processes of
/// this user (the kernel's word on the peer, besides the socket's 0600 in a 0700 directory).
public final class SocketForwardListener: ForwardListener, @unchecked Sendable {
    public let path: String
    private let fd: Int32

    /// A request must arrive this soon after the connection.
    static let requestMilliseconds = 5_000

    public init(path: String) throws {
        self.path = path
        fd = try ForwardSocket.listen(path: path)
    }

    public func serveOne(milliseconds: Int32, answer: (ForwardMessage.Request) -> String) {
        guard let connection = ForwardSocket.accept(fd, milliseconds: milliseconds) else { return }
        defer { Glibc.close(connection) }
        guard ForwardSocket.peerUID(connection) == geteuid() else { return }
        guard let line = ForwardSocket.readLine(connection, milliseconds: Self.requestMilliseconds),
              let request = ForwardMessage.Request(line: line) else {
            ForwardSocket.writeLine(connection, ForwardMessage.failure(KCAuthError(.usage, "unreadable request"), profile: nil),
                                    milliseconds: 5_000)
            return
        }
        ForwardSocket.writeLine(connection, answer(request), milliseconds: 10_000)
    }

    public func close() {
        Glibc.close(fd)
        unlink(path)
    }
}
