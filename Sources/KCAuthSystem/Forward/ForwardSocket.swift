import Glibc
import KCAuthCore

/// The Unix socket of a forwarded session (`kcauth ssh`): the laptop's agent listens on it, the
/// remote `kcauth` connects to the end ssh forwards. One line of JSON each way; every wait has a
/// deadline, and a connection carries at most ``maxLine`` bytes each way.
public enum ForwardSocket {
    /// A request or an answer (two JWTs and a few fields) fits in this many bytes.
    public static let maxLine = 64 * 1024

    /// Listens on `path` (which must not exist), created 0600 whatever the umask.
    public static func listen(path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("cannot create a socket", errno) }
        var address = try self.address(path)
        let old = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(old)
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            let e = errno
            close(fd)
            throw failure("cannot listen on \(path)", e)
        }
        return fd
    }

    /// The next connection, or nil when none arrives within `milliseconds`.
    public static func accept(_ fd: Int32, milliseconds: Int32) -> Int32? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, milliseconds) == 1 else { return nil }
        let c = Glibc.accept(fd, nil, nil)
        guard c >= 0 else { return nil }
        _ = fcntl(c, F_SETFD, FD_CLOEXEC)
        return c
    }

    /// The uid of the process at the other end (`SO_PEERCRED`: the kernel's word, not the peer's).
    public static func peerUID(_ fd: Int32) -> uid_t? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc hides it without _GNU_SOURCE).
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
        return credentials.1
    }

    /// Connects to `path` with send and receive deadlines of `seconds` on the connection.
    public static func connect(path: String, seconds: Int) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("cannot create a socket", errno) }
        var address = try self.address(path)
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard r == 0 else {
            let e = errno
            close(fd)
            throw failure("cannot reach the forwarded session at \(path)", e)
        }
        return fd
    }

    /// One line (without its newline) read within `milliseconds` in all; nil on a deadline,
    /// an early end or a line longer than ``maxLine``.
    public static func readLine(_ fd: Int32, milliseconds: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = monotonic() + Double(milliseconds) / 1000
        while true {
            if let end = bytes.firstIndex(of: 0x0A) { return Array(bytes[..<end]) }
            let left = deadline - monotonic()
            guard left > 0, bytes.count <= maxLine else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(left * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready == 1 else { return nil }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            bytes += buffer[..<n]
        }
    }

    /// Writes the line and its newline; false when the peer is gone or too slow (`milliseconds`).
    @discardableResult
    public static func writeLine(_ fd: Int32, _ line: String, milliseconds: Int) -> Bool {
        let bytes = Array(line.utf8) + [0x0A]
        let deadline = monotonic() + Double(milliseconds) / 1000
        var offset = 0
        while offset < bytes.count {
            let left = deadline - monotonic()
            guard left > 0 else { return false }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&p, 1, Int32(left * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready == 1 else { return false }
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Why a forwarded socket must not be used, or nil when it may: it must be a socket owned by
    /// this user, in a directory owned by this user (or root) that nobody else can write to —
    /// otherwise someone else could stand in for the laptop and hand out tokens of their choosing.
    public static func refusal(path: String, uid: uid_t = geteuid()) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return "\(path) does not exist (the ssh connection that forwarded it has ended?)" }
        guard info.st_mode & S_IFMT == S_IFSOCK else { return "\(path) is not a socket" }
        guard info.st_uid == uid else { return "\(path) belongs to uid \(info.st_uid), not to you" }
        let directory = parent(path)
        var dir = stat()
        guard lstat(directory, &dir) == 0, dir.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a directory" }
        guard dir.st_uid == uid || dir.st_uid == 0 else { return "\(directory) belongs to uid \(dir.st_uid), not to you" }
        guard dir.st_mode & 0o022 == 0 else { return "\(directory) can be written by others" }
        return nil
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw KCAuthError(.configuration, "the socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }

    static func failure(_ message: String, _ code: Int32) -> KCAuthError {
        KCAuthError(.configuration, message, cause: String(cString: strerror(code)))
    }
}
