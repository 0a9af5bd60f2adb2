import Glibc
import KCAuthCore

/// Receives the authorization response on `http://127.0.0.1:PORT/callback` (RFC 8252 §7.3).
///
/// - Binds the IPv4 loopback literal only, never `0.0.0.0`: RFC 8252 §8.3 recommends
///   listening on the loopback interface so other hosts cannot reach the listener, and §7.3
///   recommends `127.0.0.1` over `localhost` (which may resolve elsewhere, or to `::1`).
/// - Port 0 asks the kernel for an ephemeral port (§7.3: the port is variable at request time).
/// - Every descriptor is close-on-exec, so the browser launched meanwhile inherits none.
public struct LoopbackReceiver: RedirectReceiver {
    /// The redirect URI's path: `/callback` for logins, `/logged-out` for the post-logout
    /// redirect (registered separately at the provider).
    let path: String
    /// The pages the browser is answered with (`LandingPage`), in the presentation's words.
    let pages: any LandingPageRenderer
    /// Where the listener traces its connections (`--debug`).
    let trace: any TraceSink

    public init(path: String = "/callback", pages: any LandingPageRenderer, trace: any TraceSink = NoTrace()) {
        self.path = path
        self.pages = pages
        self.trace = trace
    }

    public func bind(port: UInt16) throws -> any BoundRedirectListener {
        try LoopbackListener(port: port, path: path, pages: pages, trace: trace)
    }
}

extension LoopbackListener {
    /// Creates a non-blocking, close-on-exec socket listening on 127.0.0.1:`requested`.
    static func listeningSocket(port requested: UInt16) throws -> (fd: Int32, port: UInt16) {
        let type = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw listenError(errno, port: requested) }
        do {
            // SO_REUSEADDR lets a fixed --port be reused while the last run's connections sit
            // in TIME_WAIT; Linux still refuses it while another socket listens on that port.
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))

            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = requested.bigEndian
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian  // INADDR_LOOPBACK (not imported)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw listenError(errno, port: requested) }
            guard listen(fd, 32) == 0 else { throw listenError(errno, port: requested) }
            return (fd, try boundPort(fd))
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// The address the socket is bound to, as (IPv4 address in host order, port).
    static func boundAddress(_ fd: Int32) -> (address: UInt32, port: UInt16)? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return (UInt32(bigEndian: address.sin_addr.s_addr), UInt16(bigEndian: address.sin_port))
    }

    private static func boundPort(_ fd: Int32) throws -> UInt16 {
        guard let bound = boundAddress(fd) else {
            throw KCAuthError(.internal, "cannot read the loopback listener's port",
                              cause: String(cString: strerror(errno)))
        }
        return bound.port
    }

    private static func listenError(_ code: Int32, port: UInt16) -> KCAuthError {
        let cause = String(cString: strerror(code))
        switch code {
        case EADDRINUSE:
            return KCAuthError(.usage, "port \(port) on 127.0.0.1 is already in use",
                               cause: cause, remedy: .chooseAnotherPort)
        case EACCES:
            return KCAuthError(.usage, "not allowed to listen on port \(port) on 127.0.0.1",
                               cause: cause, remedy: .choosePortAbove1023)
        default:
            return KCAuthError(.network, "cannot listen on 127.0.0.1:\(port)", cause: cause)
        }
    }
}
