import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// The listener learns the owner of a connection's client socket from one exact
/// sock_diag lookup, serves this user and root (WSL's localhost relay), and refuses everyone
/// else, including a peer whose owner cannot be established.
@Suite("Loopback peer owner")
struct LoopbackPeerTests {
    static let loopback4: [UInt8] = [127, 0, 0, 1]
    static let loopback6: [UInt8] = Array(repeating: 0, count: 15) + [1]

    /// The client's socket of a connection to 127.0.0.1:8080 from port 54321.
    let client4 = TCPConnectionID(family: UInt8(AF_INET), localAddress: loopback4, localPort: 54321,
                                  remoteAddress: loopback4, remotePort: 8080)

    // MARK: the netlink messages (pure)

    @Test("the request asks for one exact IPv4 socket, with no cookie")
    func requestIPv4() {
        let bytes = SockDiagMessage.request(for: client4, sequence: 0x0102_0304)
        #expect(bytes.count == 72)
        // nlmsghdr, host order (these tests run on little-endian machines)
        #expect(Array(bytes[0..<16]) == [72, 0, 0, 0, 20, 0, 1, 0, 4, 3, 2, 1, 0, 0, 0, 0])
        // inet_diag_req_v2: AF_INET, IPPROTO_TCP, no extensions, pad, every state
        #expect(Array(bytes[16..<24]) == [2, 6, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        // inet_diag_sockid: sport 54321, dport 8080 (network order), src, dst
        #expect(Array(bytes[24..<28]) == [0xD4, 0x31, 0x1F, 0x90])
        #expect(Array(bytes[28..<44]) == [127, 0, 0, 1] + Array(repeating: 0, count: 12))
        #expect(Array(bytes[44..<60]) == [127, 0, 0, 1] + Array(repeating: 0, count: 12))
        #expect(Array(bytes[60..<64]) == [0, 0, 0, 0], "any interface")
        #expect(Array(bytes[64..<72]) == Array(repeating: 0xFF, count: 8), "INET_DIAG_NOCOOKIE twice")
    }

    @Test("the request carries a whole IPv6 address in each slot")
    func requestIPv6() {
        let other: [UInt8] = [0xFE, 0x80] + Array(repeating: 0, count: 13) + [7]
        let socket = TCPConnectionID(family: UInt8(AF_INET6), localAddress: other, localPort: 1,
                                     remoteAddress: Self.loopback6, remotePort: 2)
        let bytes = SockDiagMessage.request(for: socket, sequence: 1)
        #expect(bytes[16] == UInt8(AF_INET6))
        #expect(Array(bytes[24..<28]) == [0, 1, 0, 2])
        #expect(Array(bytes[28..<44]) == other)
        #expect(Array(bytes[44..<60]) == Self.loopback6)
    }

    /// An `inet_diag_msg` answer for `socket`, owned by `uid`.
    func answer(for socket: TCPConnectionID, uid: UInt32, sequence: UInt32, family: UInt8? = nil,
                truncate: Int = 0) -> [UInt8] {
        var body = [family ?? socket.family, 1, 0, 0]  // family, TCP_ESTABLISHED, timer, retrans
        body += [UInt8(socket.localPort >> 8), UInt8(socket.localPort & 0xFF),
                 UInt8(socket.remotePort >> 8), UInt8(socket.remotePort & 0xFF)]
        body += socket.localAddress + Array(repeating: 0, count: 16 - socket.localAddress.count)
        body += socket.remoteAddress + Array(repeating: 0, count: 16 - socket.remoteAddress.count)
        body += [UInt8](repeating: 0, count: 4) + [UInt8](repeating: 0xFF, count: 8)  // if, cookie
        body += [UInt8](repeating: 0, count: 12)  // expires, rqueue, wqueue
        body += withUnsafeBytes(of: uid) { Array($0) } + [9, 0, 0, 0]  // uid, inode
        return header(type: 20, sequence: sequence, bodyLength: body.count) + body.dropLast(truncate)
    }

    func header(type: UInt16, sequence: UInt32, bodyLength: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(16 + bodyLength)) { Array($0) } + withUnsafeBytes(of: type) { Array($0) }
            + [0, 0] + withUnsafeBytes(of: sequence) { Array($0) } + [0, 0, 0, 0]
    }

    func errorAnswer(_ errno: Int32, sequence: UInt32) -> [UInt8] {
        header(type: 2, sequence: sequence, bodyLength: 20) + withUnsafeBytes(of: -errno) { Array($0) } + [UInt8](repeating: 0, count: 16)
    }

    @Test("reading the kernel's answers")
    func answers() {
        #expect(SockDiagMessage.answer(answer(for: client4, uid: 1000, sequence: 5), to: client4, sequence: 5) == .owner(1000))
        #expect(SockDiagMessage.answer(answer(for: client4, uid: 0, sequence: 5), to: client4, sequence: 5) == .owner(0))
        #expect(SockDiagMessage.answer(errorAnswer(ENOENT, sequence: 5), to: client4, sequence: 5) == .notFound)
        #expect(SockDiagMessage.answer(errorAnswer(EPERM, sequence: 5), to: client4, sequence: 5) == .failed("errno 1"))
        #expect(SockDiagMessage.answer(header(type: 3, sequence: 5, bodyLength: 4) + [0, 0, 0, 0], to: client4, sequence: 5) == .notFound)
    }

    @Test("an answer that is not about the socket asked for names no owner")
    func foreignAnswers() {
        let listenerSide = client4.reversed
        // Another request's answer, another socket's, a cut-off one, nothing at all.
        #expect(SockDiagMessage.answer(answer(for: client4, uid: 0, sequence: 4), to: client4, sequence: 5) == .failed("no answer to the request"))
        #expect(SockDiagMessage.answer(answer(for: listenerSide, uid: 0, sequence: 5), to: client4, sequence: 5) == .failed("an answer about another socket"))
        #expect(SockDiagMessage.answer(answer(for: client4, uid: 0, sequence: 5, truncate: 8), to: client4, sequence: 5) == .failed("a truncated netlink message"))
        #expect(SockDiagMessage.answer([], to: client4, sequence: 5) == .failed("no answer to the request"))
        #expect(SockDiagMessage.answer([1, 2, 3], to: client4, sequence: 5) == .failed("no answer to the request"))
    }

    @Test("a stale message before the answer is skipped; an IPv4 socket answers its IPv4-mapped address")
    func skipsAndMaps() {
        let stale = answer(for: client4, uid: 4242, sequence: 4)
        #expect(SockDiagMessage.answer(stale + answer(for: client4, uid: 1000, sequence: 5), to: client4, sequence: 5) == .owner(1000))
        let mapped: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1]
        let asked = TCPConnectionID(family: UInt8(AF_INET6), localAddress: mapped, localPort: 54321, remoteAddress: mapped, remotePort: 8080)
        #expect(SockDiagMessage.answer(answer(for: client4, uid: 7, sequence: 5), to: asked, sequence: 5) == .owner(7))
    }

    // MARK: the rule

    @Test("this user and root are served; another user, and an owner not established, are refused")
    func verdicts() {
        let me = getuid()
        #expect(LoopbackPeer.verdict(for: .user(me)) == .allowed(uid: me))
        #expect(LoopbackPeer.verdict(for: .user(0)) == .allowed(uid: 0), "WSL's localhost relay runs as root")
        #expect(LoopbackPeer.verdict(for: .user(1000), trusting: [1000, 0]) == .allowed(uid: 1000))
        #expect(LoopbackPeer.verdict(for: .user(1001), trusting: [1000, 0]) == .refused(uid: 1001))
        #expect(LoopbackPeer.verdict(for: .user(65534), trusting: [1000, 0]) == .refused(uid: 65534))
        #expect(LoopbackPeer.verdict(for: .unknown("the table is too large")) == .refused(uid: nil), "never fails open")
    }

    // MARK: the kernel

    @Test("the real lookup finds the owner of a 127.0.0.1 connection's client socket")
    func realIPv4() throws {
        let (listenFD, port) = try Self.listen(family: AF_INET)
        defer { Glibc.close(listenFD) }
        let client = try Self.connect(family: AF_INET, port: port)
        defer { Glibc.close(client) }
        let accepted = accept(listenFD, nil, nil)
        try #require(accepted >= 0)
        defer { Glibc.close(accepted) }
        let id = try #require(TCPConnectionID.of(accepted))
        #expect(id.family == UInt8(AF_INET) && id.localAddress == Self.loopback4 && id.localPort == port)
        #expect(SockDiagLookup.owner(ofPeerOf: accepted) == .user(getuid()))
        #expect(SockDiagLookup.owner(ofPeerOf: client) == .user(getuid()), "either end's peer")
        #expect(LoopbackPeer.check(accepted) == .allowed(uid: getuid()))
    }

    @Test("the real lookup finds the owner of a [::1] connection's client socket")
    func realIPv6() throws {
        let (listenFD, port) = try Self.listen(family: AF_INET6)
        defer { Glibc.close(listenFD) }
        let client = try Self.connect(family: AF_INET6, port: port)
        defer { Glibc.close(client) }
        let accepted = accept(listenFD, nil, nil)
        try #require(accepted >= 0)
        defer { Glibc.close(accepted) }
        let id = try #require(TCPConnectionID.of(accepted))
        #expect(id.family == UInt8(AF_INET6) && id.localAddress == Self.loopback6 && id.localPort == port)
        #expect(SockDiagLookup.owner(ofPeerOf: accepted) == .user(getuid()))
    }

    @Test("a client socket that is gone has no owner, and is refused")
    func goneClient() throws {
        let (listenFD, port) = try Self.listen(family: AF_INET)
        defer { Glibc.close(listenFD) }
        let client = try Self.connect(family: AF_INET, port: port)
        let accepted = accept(listenFD, nil, nil)
        try #require(accepted >= 0)
        defer { Glibc.close(accepted) }
        let id = try #require(TCPConnectionID.of(accepted))
        // SO_LINGER 0: the client's socket is reset and gone at once (no TIME_WAIT entry).
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(client)
        guard case .unknown = SockDiagLookup.owner(of: id.reversed) else {
            Issue.record("a socket that no longer exists has an owner")
            return
        }
        #expect(LoopbackPeer.check(accepted) == .refused(uid: nil))
    }

    @Test("when the owner lookup fails, the listener refuses the start URL and the callback and says so")
    func listenerFailsClosed() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages())
        defer { listener.close() }
        let port = listener.port
        _ = listener.startURL(redirectingTo: "https://op.example/auth", secretPath: Secret(.startPath, "start/xyz"))
        var lookups = 0
        // The seam: what the old /proc/net/tcp reader answered for a table over 64 MiB.
        listener.peerCheck = { fd in LoopbackPeer.check(fd, lookup: { _ in lookups += 1; return .unknown("table too large") }) }
        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(NetRawClient.get(port: port, "/start/xyz"))
            results.responses.append(NetRawClient.get(port: port, "/callback?state=s&code=c"))
        }
        var judged = 0
        var refusedWhileWaiting: [RefusedConnection] = []
        let error = try #require(throws: KCAuthError.self) {
            _ = try listener.receive(timeout: 1, tickEvery: 10, tick: {
                refusedWhileWaiting += listener.takeRefusedConnections()
                return nil
            }, judge: { _ in judged += 1; return .finish(.signedIn(user: "done", profile: "p")) })
        }
        thread.join()
        #expect(error.code == .timedOut)
        #expect(results.responses.count == 2 && results.responses.allSatisfy { $0.hasPrefix("HTTP/1.1 403 Forbidden\r\n") })
        #expect(judged == 0 && lookups == 2)
        #expect(refusedWhileWaiting == [RefusedConnection(uid: nil), RefusedConnection(uid: nil)],
                "ticked right after each refusal, not only every 10 s")
    }

    // MARK: helpers

    static func listen(family: Int32) throws -> (Int32, UInt16) {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var storage = sockaddr_storage()
        var length: socklen_t
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            withUnsafeBytes(of: address) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0[15] = 1 }  // ::1
            withUnsafeBytes(of: address) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
        try #require(Glibc.listen(fd, 4) == 0)
        let id = try #require(localPort(fd))
        return (fd, id)
    }

    static func localPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        guard result == 0 else { return nil }
        // sin_port and sin6_port are both at offset 2.
        return withUnsafeBytes(of: storage) { UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)) }
    }

    static func connect(family: Int32, port: UInt16) throws -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var storage = sockaddr_storage()
        var length: socklen_t
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            withUnsafeBytes(of: address) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0[15] = 1 }
            withUnsafeBytes(of: address) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        let connected = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) } }
        try #require(connected == 0, "connect: \(String(cString: strerror(errno)))")
        return fd
    }
}
