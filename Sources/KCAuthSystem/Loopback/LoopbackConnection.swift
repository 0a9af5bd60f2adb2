import Glibc
import KCAuthCore

/// One accepted connection: read a request head, answer once, close (`Connection: close`).
struct LoopbackConnection {
    enum Progress {
        case open
        case closed
        /// The response to a `.finish` verdict is flushed; the listener returns this request.
        case finished(CallbackRequest)
        /// The response is flushed and the login must end with this error.
        case aborted(KCAuthError)
    }

    /// A complete request head, handed to the listener to decide the answer.
    struct Request {
        var method: String
        var path: String
        var query: String?
        /// The raw head, for header fields (cookies).
        var head: [UInt8]
    }

    let fd: Int32
    /// Monotonic seconds when the connection was accepted, and when it last made progress.
    let acceptedAt: Double
    private(set) var lastActivity: Double
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var written = 0
    private var after: LoopbackAnswer.After = .close

    init(fd: Int32, now: Double = 0) {
        self.fd = fd
        acceptedAt = now
        lastActivity = now
    }

    var isResponding: Bool { !output.isEmpty }

    /// When this connection is given up if nothing happens (`LoopbackLimits`).
    func deadline(_ limits: LoopbackLimits) -> Double {
        if isResponding { return lastActivity + limits.writeSeconds }
        return min(lastActivity + limits.idleSeconds, acceptedAt + limits.headSeconds)
    }

    /// What a connection that missed its deadline amounts to: a login that was already decided
    /// stays decided even if the browser never read the whole page.
    var expired: Progress {
        switch after {
        case .finish(let request) where isResponding: return .finished(request)
        case .abort(let error) where isResponding: return .aborted(error)
        default: return .closed
        }
    }

    /// Called when `poll` reports the socket ready (or in error).
    mutating func advance(now: Double, answer: (Request) -> LoopbackAnswer) -> Progress {
        if isResponding { return flush(now: now) }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { return errno == EAGAIN || errno == EINTR ? .open : .closed }
        if count == 0 { return .closed }  // the browser gave up on a pre-connected socket
        lastActivity = now
        input.append(contentsOf: chunk[..<count])

        guard input.count <= HTTPRequestHead.maxBytes else {
            // RFC 6585 §5: 431 Request Header Fields Too Large.
            return respond(.small(431, "Request too large"), now: now)
        }
        switch HTTPRequestHead.parse(input) {
        case .incomplete:
            return .open
        case .malformed:
            return respond(.small(400, "Bad request"), now: now)
        case let .request(method, path, query):
            return respond(answer(Request(method: method, path: path, query: query, head: input)), now: now)
        }
    }

    private mutating func respond(_ answer: LoopbackAnswer, now: Double) -> Progress {
        output = LoopbackPages.response(status: answer.status, html: answer.html, extraHeaders: answer.headers)
        written = 0
        after = answer.after
        return flush(now: now)  // most responses fit the socket buffer at once
    }

    private mutating func flush(now: Double) -> Progress {
        while written < output.count {
            let count = output[written...].withUnsafeBytes {
                // MSG_NOSIGNAL: a browser that already closed must not kill kcauth with SIGPIPE.
                send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return .open }  // wait for POLLOUT
                break  // the browser went away; nothing more to send
            }
            written += count
            lastActivity = now
        }
        switch after {
        case .close: return .closed
        case .finish(let request): return .finished(request)
        case .abort(let error): return .aborted(error)
        }
    }
}
