import Glibc
import KCAuthCore
import Synchronization

/// The real ``ForwardListener``: a Unix socket (``ForwardSocket``), answering only processes of
/// this user (the kernel's word on the peer, besides the socket's 0600 in a 0700 directory).
///
/// Each connection is served by a thread of its own, at most ``maxConnections`` at a time (more
/// wait in the kernel's backlog), and gets ``requestMilliseconds`` for its request: a client that
/// connects and says nothing holds one thread that long and delays nobody.
public final class SocketForwardListener: ForwardListener, @unchecked Sendable {
    // @unchecked: `fd` never changes; the mutable state is in `state`.
    public let path: String
    private let fd: Int32
    private let state = Mutex(Connections())

    /// A request must arrive this soon after the connection (the remote kcauth sends it at once).
    static let requestMilliseconds = 2_000
    /// The answer must be taken this soon.
    static let answerMilliseconds = 10_000
    /// Connections served at the same time.
    static let maxConnections = 16

    struct Connections {
        /// Every connection open (their threads close them).
        var open: Set<Int32> = []
        var closing = false
    }

    public init(path: String) throws {
        self.path = path
        fd = try ForwardSocket.listen(path: path)
    }

    public func serve(milliseconds: Int32, answer: @escaping @Sendable (ForwardMessage.Request) -> String) {
        var wait = milliseconds
        while true {
            guard state.withLock({ !$0.closing && $0.open.count < Self.maxConnections }) else {
                // Every thread is busy: the next connection waits in the backlog.
                if wait > 0 { usleep(UInt32(min(wait, 20)) * 1000) }
                return
            }
            guard let connection = ForwardSocket.accept(fd, milliseconds: wait) else { return }
            wait = 0  // then take whatever else is already waiting, without blocking
            guard ForwardSocket.peerUID(connection) == geteuid() else {
                Glibc.close(connection)
                continue
            }
            state.withLock { _ = $0.open.insert(connection) }
            ConnectionThread(listener: self, connection: connection, answer: answer).start()
        }
    }

    /// One connection: its request within the deadline, then its answer.
    fileprivate func handle(_ connection: Int32, answer: @Sendable (ForwardMessage.Request) -> String) {
        let read = ForwardSocket.read(connection, milliseconds: Self.requestMilliseconds)
        let closing = state.withLock { $0.closing }
        defer {
            // Out of the set first: once closed, the number may be another connection's.
            state.withLock { _ = $0.open.remove(connection) }
            Glibc.close(connection)
        }
        guard !closing else { return }
        switch read {
        case .closedEmpty:
            return  // a probe: the remote side checking that something listens
        case .line(let line):
            if let request = ForwardMessage.Request(line: line) {
                ForwardSocket.writeLine(connection, answer(request), milliseconds: Self.answerMilliseconds)
                return
            }
        case .failed:
            break
        }
        ForwardSocket.writeLine(connection, ForwardMessage.failure(KCAuthError(.usage, "unreadable request"), profile: nil),
                                milliseconds: 1_000)
    }

    public func close() {
        state.withLock { connections in
            connections.closing = true
            // Reads and writes end at once (a client that neither speaks nor listens holds
            // nothing up); the fds stay open until their threads close them.
            for connection in connections.open { shutdown(connection, Int32(SHUT_RDWR)) }
        }
        Glibc.close(fd)
        unlink(path)
        // An answer under way is finished, not cut (each is bounded by its own network and
        // keyring deadlines): a refresh cut short could lose a rotated refresh token.
        while !state.withLock({ $0.open.isEmpty }) { usleep(10_000) }
    }
}

/// The thread that serves one connection; detached, it ends with its connection.
private final class ConnectionThread: @unchecked Sendable {
    // @unchecked: set once before the thread starts, read only by it.
    let listener: SocketForwardListener
    let connection: Int32
    let answer: @Sendable (ForwardMessage.Request) -> String

    init(listener: SocketForwardListener, connection: Int32, answer: @escaping @Sendable (ForwardMessage.Request) -> String) {
        self.listener = listener
        self.connection = connection
        self.answer = answer
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            let this = Unmanaged<ConnectionThread>.fromOpaque(raw!).takeRetainedValue()
            this.listener.handle(this.connection, answer: this.answer)
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had: this connection is served here, as before threads.
            Unmanaged<ConnectionThread>.fromOpaque(context).release()
            listener.handle(connection, answer: answer)
        }
    }
}
