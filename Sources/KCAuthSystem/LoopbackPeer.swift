import Glibc

/// Who is on the other end of a connection to the listener (issue 10, defect 4).
///
/// Any local user can connect to 127.0.0.1, and the start URL is in the browser's argv, which
/// every local user can read in /proc/PID/cmdline. The kernel knows which user created the
/// client's socket: /proc/net/tcp lists every TCP socket of this network namespace with its
/// owner (the uid column), so the listener serves the start URL and the callback only to
/// connections whose other end belongs to the user running kcauth.
enum LoopbackPeer {
    enum Owner: Equatable {
        case user(UInt32)
        /// /proc/net/tcp lists no socket for the peer: it went away (or is hidden). Refused.
        case notFound
        /// /proc/net/tcp cannot be read here (no procfs, a sandbox): nothing can be decided.
        case unknown
    }

    /// Whether a request on `fd` may reach the start URL or the callback.
    static func isAllowed(_ fd: Int32, table: String = "/proc/net/tcp") -> Bool {
        switch owner(of: fd, table: table) {
        case .user(let uid): return uid == getuid() || uid == geteuid()
        case .notFound: return false
        case .unknown: return true  // the browser binding (cookie, one-shot start URL) still holds
        }
    }

    static func owner(of fd: Int32, table: String = "/proc/net/tcp") -> Owner {
        guard let peer = address(fd, peer: true), let local = address(fd, peer: false),
              let text = readTable(table) else { return .unknown }
        return owner(in: text, peer: peer, local: local)
    }

    /// The uid of the row whose local end is `peer` and remote end is `local`: the client's
    /// socket, seen from its side. Addresses are as the kernel prints them: the IPv4 address's
    /// four bytes in memory order as one hex number, the port in host order (`%08X:%04X`).
    static func owner(in table: String, peer: String, local: String) -> Owner {
        for line in table.split(separator: "\n").dropFirst() {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ...
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, fields[1] == peer, fields[2] == local else { continue }
            guard let uid = UInt32(fields[7]) else { return .notFound }
            return .user(uid)
        }
        return .notFound
    }

    /// `getpeername`/`getsockname` of an IPv4 socket in /proc/net/tcp's notation.
    static func address(_ fd: Int32, peer: Bool) -> String? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return hex(address.sin_addr.s_addr, digits: 8) + ":" + hex(UInt32(UInt16(bigEndian: address.sin_port)), digits: 4)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The table's text; nil when it cannot be read. Capped: a table larger than this (hundreds
    /// of thousands of sockets) is treated as unreadable rather than read without end.
    private static func readTable(_ path: String, limit: Int = 64 << 20) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > limit { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
