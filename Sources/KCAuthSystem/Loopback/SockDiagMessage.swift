/// The two netlink messages of one socket lookup by the kernel's sock_diag interface
/// (`NETLINK_SOCK_DIAG`, linux/inet_diag.h): the request for the one TCP socket with an exact
/// 4-tuple, and the reading of the answer. Pure byte work, so both are tested without a kernel.
///
/// Why a lookup and not /proc/net/tcp: that file lists every TCP socket of the network
/// namespace, so reading it costs time in proportion to what other users hold open (0.8 s per
/// request at 64 MiB), and a reader that gives up on a large table cannot decide anything. The
/// exact-socket query costs the same however many sockets exist.
enum SockDiagMessage {
    /// What the kernel answered about one socket.
    enum Answer: Equatable {
        /// `inet_diag_msg.idiag_uid` of the socket asked for.
        case owner(UInt32)
        /// No such socket (`ENOENT`): it went away, or it is in another network namespace.
        case notFound
        /// An error answer other than "not found" (its errno), or bytes that are not an answer to
        /// this request.
        case failed(String)
    }

    // linux/netlink.h, linux/sock_diag.h, linux/inet_diag.h
    static let netlinkSockDiag: Int32 = 4  // NETLINK_SOCK_DIAG
    static let sockDiagByFamily: UInt16 = 20  // SOCK_DIAG_BY_FAMILY
    static let requestFlag: UInt16 = 0x1  // NLM_F_REQUEST; no NLM_F_DUMP: one exact socket
    static let errorType: UInt16 = 2  // NLMSG_ERROR
    static let doneType: UInt16 = 3  // NLMSG_DONE
    static let headerSize = 16  // struct nlmsghdr
    static let requestSize = headerSize + 56  // + struct inet_diag_req_v2
    static let answerSize = headerSize + 72  // + struct inet_diag_msg
    static let tcp: UInt8 = 6  // IPPROTO_TCP
    static let enoent: Int32 = 2

    /// The request for the socket whose local end is `socket.local…` and remote end is
    /// `socket.remote…`. The kernel finds it with the same hash lookup that delivers packets
    /// (`inet_diag_find_one_icsk`): `idiag_src`/`sport` is that socket's own address.
    static func request(for socket: TCPConnectionID, sequence: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(requestSize)
        // struct nlmsghdr: host byte order.
        appendHost(UInt32(requestSize), to: &bytes)
        appendHost(sockDiagByFamily, to: &bytes)
        appendHost(requestFlag, to: &bytes)
        appendHost(sequence, to: &bytes)
        appendHost(UInt32(0), to: &bytes)  // nlmsg_pid: addressed to the kernel
        // struct inet_diag_req_v2
        bytes += [socket.family, tcp, 0, 0]  // sdiag_family, sdiag_protocol, idiag_ext (none), pad
        appendHost(UInt32.max, to: &bytes)  // idiag_states: any state
        // struct inet_diag_sockid: ports and addresses in network order.
        appendNetwork(socket.localPort, to: &bytes)
        appendNetwork(socket.remotePort, to: &bytes)
        bytes += padded(socket.localAddress)
        bytes += padded(socket.remoteAddress)
        appendHost(UInt32(0), to: &bytes)  // idiag_if: any interface
        // INET_DIAG_NOCOOKIE twice: any other cookie must match the socket's, or ESTALE.
        appendHost(UInt32.max, to: &bytes)
        appendHost(UInt32.max, to: &bytes)
        return bytes
    }

    /// The owner of `socket` in the kernel's `answer` to request `sequence`. An answer for any
    /// other socket (another 4-tuple, another sequence number) is not taken for it.
    static func answer(_ answer: [UInt8], to socket: TCPConnectionID, sequence: UInt32) -> Answer {
        var offset = 0
        while answer.count - offset >= headerSize {
            let length = Int(readHost(UInt32.self, answer, offset))
            let type = readHost(UInt16.self, answer, offset + 4)
            let seq = readHost(UInt32.self, answer, offset + 8)
            guard length >= headerSize, length <= answer.count - offset else {
                return .failed("a truncated netlink message")
            }
            if seq == sequence {
                switch type {
                case errorType:
                    guard length >= headerSize + 4 else { return .failed("a truncated netlink error") }
                    let code = -Int32(bitPattern: readHost(UInt32.self, answer, offset + headerSize))
                    if code == enoent { return .notFound }
                    if code != 0 { return .failed("errno \(code)") }
                case doneType:
                    return .notFound
                case sockDiagByFamily:
                    guard length >= answerSize else { return .failed("a truncated inet_diag_msg") }
                    let body = offset + headerSize
                    let found = TCPConnectionID(
                        family: answer[body],
                        localAddress: Array(answer[(body + 8)..<(body + 24)]),
                        localPort: readNetwork(answer, body + 4),
                        remoteAddress: Array(answer[(body + 24)..<(body + 40)]),
                        remotePort: readNetwork(answer, body + 6))
                    guard sameSocket(found, socket) else { return .failed("an answer about another socket") }
                    return .owner(readHost(UInt32.self, answer, body + 64))
                default:
                    break
                }
            }
            offset += (length + 3) & ~3  // NLMSG_ALIGN
        }
        return .failed("no answer to the request")
    }

    /// Whether two 4-tuples name one socket. An IPv4 address and its IPv4-mapped IPv6 form are
    /// the same address (the kernel answers a mapped query with the IPv4 socket).
    static func sameSocket(_ a: TCPConnectionID, _ b: TCPConnectionID) -> Bool {
        a.localPort == b.localPort && a.remotePort == b.remotePort
            && mapped(a.localAddress, a.family) == mapped(b.localAddress, b.family)
            && mapped(a.remoteAddress, a.family) == mapped(b.remoteAddress, b.family)
    }

    private static func mapped(_ address: [UInt8], _ family: UInt8) -> [UInt8] {
        if family == 2 /* AF_INET */ { return Array(repeating: 0, count: 10) + [0xFF, 0xFF] + address.prefix(4) }
        return padded(address)
    }

    private static func padded(_ address: [UInt8]) -> [UInt8] {
        Array(address.prefix(16)) + Array(repeating: 0, count: max(0, 16 - address.count))
    }

    private static func appendHost<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }

    private static func appendNetwork(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    private static func readHost<T: FixedWidthInteger>(_ type: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<(offset + MemoryLayout<T>.size)]) }
        return value
    }

    private static func readNetwork(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}
