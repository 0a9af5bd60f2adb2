#if canImport(Glibc)
import Glibc
#endif

/// Reading the small files both programs trust — the configuration file, the runtime token
/// cache, session marks, client credentials — with one set of checks and no way to hang:
/// `O_NONBLOCK` (a FIFO would otherwise wait for a writer forever; regular files ignore it),
/// `fstat` on the open descriptor, a size cap checked before and while reading.
public enum ContractFile {
    public enum Outcome: Sendable, Equatable {
        /// The file (or, for the configuration, its directory) does not exist.
        case absent
        case bytes([UInt8])
        case refused(path: String, FileRefusal)
    }

    /// Far more than any real configuration or cache entry; a cap so that a mistake (or
    /// `/dev/zero` behind a link) cannot exhaust memory.
    public static let sizeLimit = 1 << 20

    /// Reads `path` under `rule`. `.secret` does not follow symbolic links; `.configuration`
    /// and `.credential` do, and `.configuration` checks the directory of the file and of the
    /// link's target too.
    public static func read(_ path: String, rule: FileRule, limit: Int = sizeLimit, euid: uid_t = geteuid()) -> Outcome {
        if rule == .configuration {
            switch checkDirectory(parent(path), rule: .configuration, euid: euid, mayBeAbsent: true) {
            case .refused(let p, let why): return .refused(path: p, why)
            case .absent: return .absent
            default: break
            }
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (rule == .secret ? O_NOFOLLOW : 0))
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .absent }
            if code == ELOOP, rule == .secret { return .refused(path: path, .symbolicLink) }
            return .refused(path: path, .failed(errno: code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .refused(path: path, .failed(errno: errno)) }
        if let refusal = rule.check(info, euid: euid) { return .refused(path: path, refusal) }
        if rule == .configuration, let target = realPath(path), parent(target) != parent(path) {
            if case .refused(let p, let why) = checkDirectory(parent(target), rule: .configuration, euid: euid, mayBeAbsent: false) {
                return .refused(path: p, why)
            }
        }
        guard info.st_size >= 0, info.st_size <= limit else { return .refused(path: path, .tooLarge(limit: limit)) }
        return readAll(fd, expected: Int(info.st_size), limit: limit).map { .bytes($0) } ?? .refused(path: path, .tooLarge(limit: limit))
    }

    /// A directory is checked (its outcome carries no bytes), a file is read: what the front's
    /// reader does (KCAuthFastPath's `FrontInputs.read`), for the full program's readers that must
    /// decide as the front does (``SessionGlance/read(profile:binding:runtimeDirectory:read:mark:now:)``).
    public static func inspect(_ path: String, _ rule: FileRule) -> Outcome {
        var info = stat()
        if rule == .secret, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            return checkDirectory(path, rule: rule, mayBeAbsent: false)
        }
        return read(path, rule: rule)
    }

    /// A directory under `rule` (stat follows a link to it: `~/.config` may be one).
    public static func checkDirectory(_ path: String, rule: FileRule, euid: uid_t = geteuid(), mayBeAbsent: Bool) -> Outcome {
        var info = stat()
        let found = rule == .secret ? lstat(path, &info) : stat(path, &info)
        guard found == 0 else {
            let code = errno
            if mayBeAbsent, code == ENOENT { return .absent }
            return .refused(path: path, code == ENOENT ? .notDirectory : .failed(errno: code))
        }
        if let refusal = rule.check(info, euid: euid, directory: true) { return .refused(path: path, refusal) }
        return .bytes([])
    }

    /// All of the descriptor's bytes, at most `limit`; nil when it holds more. The buffer is
    /// the file's size and one byte more (to see it grow), uninitialised: zeroing a large buffer
    /// per read was a third of a warm token's instructions (docs/performance.md §6).
    static func readAll(_ fd: Int32, expected: Int, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var capacity = min(expected, limit) + 1
        while true {
            var failed = false
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var count = 0
                while count < capacity {
                    let n = Glibc.read(fd, buffer.baseAddress! + count, capacity - count)
                    if n < 0, errno == EINTR { continue }
                    guard n >= 0 else { failed = true; break }
                    if n == 0 { break }
                    count += n
                }
                initialized = count
            }
            if failed { return nil }
            bytes += chunk
            if chunk.count < capacity { return bytes }
            // It grew while read (or stat said 0, as /proc files do): go on, up to the limit.
            guard bytes.count <= limit else { return nil }
            capacity = min(64 * 1024, limit + 1 - bytes.count)
            if capacity <= 0 { return nil }
        }
    }

    /// `/a/b/c` → `/a/b`; `/a` → `/`; `c` → `.`.
    public static func parent(_ path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    }

    /// The link's final target, nil when it does not resolve.
    public static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return ASCIIText.string(cString: real)
    }
}
