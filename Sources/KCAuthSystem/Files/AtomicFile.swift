#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// Small files written the safe way: a private directory (0700), a temp file (0600) in it,
/// fsync, rename over the target, fsync the directory. A reader sees the old file or the new one,
/// never half of either, even if kcauth is killed in between.
public enum AtomicFile {
    /// Creates `path` and its missing parents with mode 0700 (existing parents are left alone).
    public static func makeDirectory(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw KCAuthError(.configuration, "cannot create directory \(current): \(String(cString: strerror(errno)))")
            }
        }
    }

    public static func write(_ text: String, to path: String) throws {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try makeDirectory(directory.isEmpty ? "." : directory)
        try write(bytes: Array(text.utf8), to: path)
    }

    /// The same into a directory that must exist already (none is made). A link at `path` is
    /// replaced, never followed: rename(2) replaces the name.
    public static func write(bytes: [UInt8], to path: String) throws {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("create a temporary file next to", path) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let tempPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Ended by a signal before the rename, kcauth leaves no half-made copy of a secret.
        try ProcessSignals.onEnding({ unlink(tempPath) }) {
            try writeAndRename(fd: fd, bytes: bytes, tempPath: tempPath, path: path)
        }
        let dirFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 { fsync(dirFD); close(dirFD) }
    }

    private static func writeAndRename(fd: Int32, bytes: [UInt8], tempPath: String, path: String) throws {
        var ok = fchmod(fd, 0o600) == 0
        var offset = 0
        while ok, offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            ok = n > 0
            offset += max(n, 0)
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(tempPath, path) == 0 else {
            let error = failure("write", path)
            unlink(tempPath)
            throw error
        }
    }

    /// The file's contents, or nil when it does not exist.
    public static func read(_ path: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("read", path)
        }
        defer { close(fd) }
        return try readToEnd(fd, path: path)
    }

    /// Everything left to read from `fd`, as UTF-8 text (`path` names it in errors).
    static func readToEnd(_ fd: Int32, path: String) throws -> String {
        String(decoding: try readBytes(fd, path: path), as: UTF8.self)
    }

    /// Everything left to read from `fd`; `tooLarge` is thrown once more than `limit` bytes came.
    static func readBytes(_ fd: Int32, path: String, limit: Int = .max, tooLarge: (() -> any Error)? = nil) throws -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw failure("read", path) }
            if n == 0 { break }
            data += buffer[0..<n]
            if data.count > limit { throw tooLarge?() ?? failure("read", path) }
        }
        return data
    }

    private static func failure(_ verb: String, _ path: String) -> KCAuthError {
        KCAuthError(.configuration, "cannot \(verb) \(path): \(String(cString: strerror(errno)))")
    }
}
