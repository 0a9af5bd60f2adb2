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

    /// How reading one line ended.
    public enum LineRead: Equatable {
        case line([UInt8])
        /// The peer closed the connection before it sent a byte.
        case closedEmpty
        /// A deadline, an early end after some bytes, or a line longer than ``maxLine``.
        case failed
    }

    /// One line (without its newline) read within `milliseconds` in all; nil on a deadline,
    /// an early end or a line longer than ``maxLine``.
    public static func readLine(_ fd: Int32, milliseconds: Int) -> [UInt8]? {
        if case .line(let line) = read(fd, milliseconds: milliseconds) { return line }
        return nil
    }

    /// As ``readLine(_:milliseconds:)``, telling a peer that closed without a word apart.
    public static func read(_ fd: Int32, milliseconds: Int) -> LineRead {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = monotonic() + Double(milliseconds) / 1000
        while true {
            if let end = bytes.firstIndex(of: 0x0A) { return .line(Array(bytes[..<end])) }
            let left = deadline - monotonic()
            guard left > 0, bytes.count <= maxLine else { return .failed }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(left * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready == 1 else { return .failed }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n == 0, bytes.isEmpty { return .closedEmpty }
            guard n > 0 else { return .failed }
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

    /// What is at `path` for the user `uid`: only a socket of the user's, in a directory owned
    /// by the user (or root) that nobody else can write to, may be used — otherwise someone else
    /// could stand in for the laptop and hand out tokens of their choosing. With `probe`, a
    /// connection attempt tells a socket something listens on (live) from one left behind (dead:
    /// refused at once, as the kernel answers for a socket file without a listener).
    public static func inspect(path: String, uid: uid_t = geteuid(), probe: Bool = true) -> ForwardSocketState {
        let directory = parent(path)
        var dir = stat()
        guard lstat(directory, &dir) == 0 else { return .absent }
        // Another user's directory first: its 0700 would hide the socket as if it were absent.
        guard dir.st_uid == uid || dir.st_uid == 0 else { return .notYours(uid: dir.st_uid) }
        var info = stat()
        guard lstat(path, &info) == 0 else { return .absent }
        guard info.st_uid == uid else { return .notYours(uid: info.st_uid) }
        guard dir.st_mode & S_IFMT == S_IFDIR else { return .unsafe("\(directory) is not a directory") }
        guard dir.st_mode & 0o022 == 0 else { return .unsafe("\(directory) can be written by others") }
        guard info.st_mode & S_IFMT == S_IFSOCK else { return .unsafe("\(path) is not a socket") }
        guard probe else { return .live }
        switch tryConnect(path) {
        case 0: return .live
        case ECONNREFUSED: return .dead
        default: return .live  // the exchange says what is wrong
        }
    }

    /// Removes a dead socket of the user's at `path`, after checking again that it is one (the
    /// same file, still refusing connections), and then its directory when `kcauth ssh` made it
    /// (`mktemp -d -t kcauth-forward.XXXXXXXXXX`) and nothing else is in it.
    public static func removeDead(path: String, uid: uid_t = geteuid()) {
        var before = stat()
        guard lstat(path, &before) == 0, inspect(path: path, uid: uid) == .dead else { return }
        var now = stat()
        guard lstat(path, &now) == 0, now.st_ino == before.st_ino, now.st_dev == before.st_dev else { return }
        unlink(path)
        let directory = parent(path)
        if directory.split(separator: "/").last?.hasPrefix("kcauth-forward.") == true { rmdir(directory) }
    }

    /// 0 when a connection to `path` is accepted (and closed at once), else the errno.
    static func tryConnect(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        guard var address = try? self.address(path) else { return ENAMETOOLONG }
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return r == 0 ? 0 : errno
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
