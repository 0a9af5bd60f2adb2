#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// The real ``TokenFiles``: a private directory on memory-backed storage (``TokenDirectory``),
/// a first write that creates the file exclusively (`O_EXCL | O_NOFOLLOW`: nothing that is there
/// is overwritten, no link is followed), later writes by temp file and rename (``AtomicFile``)
/// while the file there is still kcauth's, and a removal of that file only. "Still kcauth's":
/// the same file as a descriptor kcauth keeps open on what it wrote (an open file's inode
/// cannot be reused by a file put there meanwhile, as a bare device and inode number could).
public final class SystemTokenFiles: TokenFiles, @unchecked Sendable {
    // @unchecked: the mutable state is only touched under `mutex`.
    private let directory: TokenDirectory
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// A descriptor on the file each path holds since kcauth wrote it.
    private var written: [String: Int32] = [:]
    /// The flock of each private directory made.
    private var locks: [String: Int32] = [:]

    public init(environment: [String: String] = [:]) {
        directory = TokenDirectory(environment: environment)
        pthread_mutex_init(mutex, nil)
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    public func removeLeftovers() { directory.removeLeftovers() }

    public func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    public func makePrivateDirectory() throws -> String {
        let made = try directory.create()
        locked { locks[made.path] = made.lock }
        return made.path
    }

    public func write(_ text: String, to path: String) throws {
        let held: Int32
        if let ours = locked({ written[path] }) {
            guard Self.isSame(path, ours) else {
                throw KCAuthError(.configuration, "\(Sanitize.oneLine(path, limit: 200)) is no longer the token file kcauth wrote; "
                                  + "not writing over what is there now")
            }
            try AtomicFile.write(text, to: path)
            held = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        } else {
            held = try Self.create(text, at: path)
        }
        let previous = locked { () -> Int32? in
            defer { written[path] = held >= 0 ? held : nil }
            return written[path]
        }
        if let previous { close(previous) }
    }

    public func remove(_ path: String, directory: String?) {
        if let ours = locked({ written.removeValue(forKey: path) }) {
            if Self.isSame(path, ours) { unlink(path) }
            close(ours)
        }
        guard let directory else { return }
        let lock = locked { locks.removeValue(forKey: directory) }
        rmdir(directory)
        if let lock { close(lock) }
    }

    /// Whether `path` (not followed) is the file open at `fd`.
    static func isSame(_ path: String, _ fd: Int32) -> Bool {
        var there = stat(), ours = stat()
        return lstat(path, &there) == 0 && fstat(fd, &ours) == 0 && there.st_dev == ours.st_dev && there.st_ino == ours.st_ino
    }

    /// The file's first version: created (0600) where nothing is, never through a link; the
    /// descriptor kcauth keeps on it.
    static func create(_ text: String, at path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let exists = errno == EEXIST
            let reason = exists ? "something is there now" : String(cString: strerror(errno))
            throw KCAuthError(exists ? .usage : .configuration, "cannot create \(Sanitize.oneLine(path, limit: 200)): \(reason)")
        }
        var ok = fchmod(fd, 0o600) == 0
        let bytes = Array(text.utf8)
        var offset = 0
        while ok, offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            ok = n > 0
            offset += max(n, 0)
        }
        ok = ok && fsync(fd) == 0
        guard ok else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(path)
            throw KCAuthError(.configuration, "cannot write \(Sanitize.oneLine(path, limit: 200)): \(reason)")
        }
        return fd
    }
}
