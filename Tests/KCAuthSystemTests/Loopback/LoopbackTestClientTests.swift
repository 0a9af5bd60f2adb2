import Glibc

// Test support for the loopback listener tests: a raw TCP client and a plain pthread, so a
// client can talk while the test thread blocks in `receive` (without tying up the
// cooperative pool). `Net` prefix: no clashes with other helpers in this target.

/// A connected TCP socket to 127.0.0.1:`port`.
struct NetRawClient {
    let fd: Int32

    init(port: UInt16, address: UInt32 = 0x7f00_0001) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)  // never hang a test forever
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        target.sin_addr.s_addr = address.bigEndian
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw NetConnectError(code: code)
        }
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything until the server closes (or 10 s pass).
    func readAll() -> String {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            result += chunk[..<count]
        }
        return String(decoding: result, as: UTF8.self)
    }

    func close() { Glibc.close(fd) }

    /// Connects, sends `request`, reads the whole response, closes.
    static func exchange(port: UInt16, _ request: String) -> String {
        guard let client = try? NetRawClient(port: port) else { return "" }
        defer { client.close() }
        client.send(request)
        return client.readAll()
    }

    static func get(port: UInt16, _ target: String) -> String {
        exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    }
}

struct NetConnectError: Error { let code: Int32 }

/// A joinable pthread running `body`.
final class NetTestThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed")
    }

    func join() { pthread_join(thread, nil) }
}

/// Results written by a client thread and read by the test after `join()` (which orders them).
final class NetResults: @unchecked Sendable {
    var responses: [String] = []
}

/// The port of a `http://127.0.0.1:PORT/callback` URI.
func netPort(of redirectURI: String) -> UInt16 {
    let afterHost = redirectURI.dropFirst("http://127.0.0.1:".count)
    return UInt16(afterHost.prefix(while: { $0.isNumber }))!
}
