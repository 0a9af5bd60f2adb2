import Glibc

/// The 4-tuple of one TCP connection, as seen from one of its ends: enough for the kernel to
/// find the socket at the other end (`SockDiagRequest`).
///
/// Addresses are kept as the 16 bytes of an IPv6 address or the first 4 of them for IPv4, in
/// network order, exactly as `inet_diag_sockid` carries them; ports in host order.
struct TCPConnectionID: Equatable, Sendable {
    /// `AF_INET` or `AF_INET6`.
    var family: UInt8
    var localAddress: [UInt8]
    var localPort: UInt16
    var remoteAddress: [UInt8]
    var remotePort: UInt16

    /// The same connection seen from the other end: the client's socket, for an accepted one.
    var reversed: TCPConnectionID {
        TCPConnectionID(family: family, localAddress: remoteAddress, localPort: remotePort,
                        remoteAddress: localAddress, remotePort: localPort)
    }

    /// `getsockname` and `getpeername` of a connected TCP socket; nil when either fails or the
    /// two ends are not of one family.
    static func of(_ fd: Int32) -> TCPConnectionID? {
        guard let local = endpoint(fd, peer: false), let remote = endpoint(fd, peer: true),
              local.family == remote.family else { return nil }
        return TCPConnectionID(family: local.family, localAddress: local.address, localPort: local.port,
                               remoteAddress: remote.address, remotePort: remote.port)
    }

    private static func endpoint(_ fd: Int32, peer: Bool) -> (family: UInt8, address: [UInt8], port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &storage) { raw in
                let address = raw.load(fromByteOffset: 0, as: sockaddr_in.self)
                let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
                return (UInt8(AF_INET), bytes, UInt16(bigEndian: address.sin_port))
            }
        case AF_INET6:
            return withUnsafeBytes(of: &storage) { raw in
                let address = raw.load(fromByteOffset: 0, as: sockaddr_in6.self)
                let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
                return (UInt8(AF_INET6), bytes, UInt16(bigEndian: address.sin6_port))
            }
        default:
            return nil
        }
    }
}
