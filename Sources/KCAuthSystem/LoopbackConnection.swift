import Glibc
import KCAuthCore

/// One accepted connection: read a request head, answer once, close (`Connection: close`).
struct LoopbackConnection {
    enum Progress {
        case open
        case closed
        /// The response to a `.finish` verdict is flushed; the listener returns this request.
        case finished(CallbackRequest)
    }

    let fd: Int32
    let callbackPath: String
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var written = 0
    private var finishing: CallbackRequest?

    init(fd: Int32, callbackPath: String = LoopbackListener.callbackPath) {
        self.fd = fd
        self.callbackPath = callbackPath
    }

    var isResponding: Bool { !output.isEmpty }

    /// Called when `poll` reports the socket ready (or in error).
    mutating func advance(judge: (CallbackRequest) -> CallbackVerdict, start: (String) -> String? = { _ in nil }) -> Progress {
        if isResponding { return flush() }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { return errno == EAGAIN || errno == EINTR ? .open : .closed }
        if count == 0 { return .closed }  // the browser gave up on a pre-connected socket
        input.append(contentsOf: chunk[..<count])

        guard input.count <= HTTPRequestHead.maxBytes else {
            // RFC 6585 §5: 431 Request Header Fields Too Large.
            return respond(status: 431, html: LoopbackPages.small("Request too large"))
        }
        switch HTTPRequestHead.parse(input) {
        case .incomplete:
            return .open
        case .malformed:
            return respond(status: 400, html: LoopbackPages.small("Bad request"))
        case let .request(method, path, query):
            guard method == "GET" else {
                // RFC 9110 §15.5.6: a 405 must list the allowed methods.
                return respond(status: 405, html: LoopbackPages.small("Method not allowed"),
                               extraHeaders: ["Allow: GET"])
            }
            if let location = start(path) {
                // RFC 9110 §15.4.3: 302 Found; the page is for clients that do not follow it.
                return respond(status: 302, html: LoopbackPages.small("Continue at the provider"),
                               extraHeaders: ["Location: \(location)"])
            }
            // Only the redirect URI is shown to the judge; /favicon.ico and friends are not.
            guard path == callbackPath else {
                return respond(status: 404, html: LoopbackPages.small("Not found"))
            }
            let request = CallbackRequest(parameters: FormEncoding.decode(query ?? ""))
            switch judge(request) {
            case .keepWaiting(let page):
                return respond(status: page.status, html: page.html)
            case .finish(let page):
                finishing = request
                return respond(status: page.status, html: page.html)
            }
        }
    }

    private mutating func respond(status: Int, html: String, extraHeaders: [String] = []) -> Progress {
        output = LoopbackPages.response(status: status, html: html, extraHeaders: extraHeaders)
        written = 0
        return flush()  // most responses fit the socket buffer at once
    }

    private mutating func flush() -> Progress {
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
        }
        if let finishing { return .finished(finishing) }
        return .closed
    }
}
