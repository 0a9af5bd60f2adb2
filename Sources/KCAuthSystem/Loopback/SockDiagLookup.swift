import Glibc

/// Asks the kernel who owns the socket at the other end of a local TCP connection: one
/// `SOCK_DIAG_BY_FAMILY` request for the exact 4-tuple on a `NETLINK_SOCK_DIAG` socket
/// (`SockDiagMessage`). Unprivileged: the kernel tells any local user a socket's owner, as
/// `ss -e` shows.
enum SockDiagLookup {
    /// How long the kernel may take to answer; it answers at once, so this only bounds a wedge.
    static let timeoutMicroseconds = 500_000

    /// The uid owning the client's socket of the connection accepted on `fd`, or why it is
    /// unknown.
    static func owner(ofPeerOf fd: Int32) -> PeerOwner {
        guard let connection = TCPConnectionID.of(fd) else {
            return .unknown("the connection's addresses cannot be read (\(String(cString: strerror(errno))))")
        }
        return owner(of: connection.reversed)
    }

    /// The uid owning the socket whose own end is `socket.local…`.
    static func owner(of socket: TCPConnectionID) -> PeerOwner {
        let type = Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue)
        let fd = Glibc.socket(AF_NETLINK, type, SockDiagMessage.netlinkSockDiag)
        guard fd >= 0 else { return .unknown("no sock_diag socket (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: timeoutMicroseconds)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        // A sequence number of our own, so a stray message is never read as the answer.
        let sequence = UInt32.random(in: 1...UInt32.max)
        let request = SockDiagMessage.request(for: socket, sequence: sequence)
        // struct sockaddr_nl (not imported): nl_family, nl_pad, nl_pid 0 (the kernel), nl_groups.
        var kernel = sockaddr_storage()
        kernel.ss_family = sa_family_t(AF_NETLINK)
        let addressLength = socklen_t(12)
        let sent = withUnsafePointer(to: &kernel) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                request.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, address, addressLength) }
            }
        }
        guard sent == request.count else { return .unknown("the sock_diag request was not sent (\(String(cString: strerror(errno))))") }

        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            var from = sockaddr_storage()
            var fromLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &fromLength) }
                }
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .unknown("no sock_diag answer (\(String(cString: strerror(errno))))")
            }
            let senderPID = withUnsafeBytes(of: &from) { $0.load(fromByteOffset: 4, as: UInt32.self) }  // nl_pid
            // Only the kernel speaks for the kernel: another process may send to our port.
            guard senderPID == 0 else { continue }
            switch SockDiagMessage.answer(Array(buffer[..<count]), to: socket, sequence: sequence) {
            case .owner(let uid): return .user(uid)
            case .notFound: return .unknown("the kernel knows no such socket")
            case .failed(let why): return .unknown("sock_diag: \(why)")
            }
        }
    }
}
