#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// Where `exec --keep-fresh` keeps its token file: memory-backed storage only, never a disk
/// (where a copy would outlive a SIGKILL, a crash and the machine's next boot, in backups too).
///
/// The first usable place of: `$XDG_RUNTIME_DIR`, `/run/user/UID` (each an absolute directory of
/// the user's, closed to others, on tmpfs or ramfs), else `/dev/shm` (a tmpfs). In it, a 0700
/// directory made by mkdtemp(3), named `kcauth-token-PID-XXXXXX` by the process that owns it,
/// which holds an flock on it while it runs. A directory whose process is gone and whose flock
/// is free is a leftover (kcauth was killed by SIGKILL): ``removeLeftovers()`` removes it.
public struct TokenDirectory: Sendable {
    public static let prefix = "kcauth-token-"

    /// The candidates, in order of preference.
    let places: [String]

    public init(environment: [String: String], uid: uid_t = geteuid()) {
        var places: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { places.append(runtime) }
        places.append("/run/user/\(uid)")
        places.append("/dev/shm")
        self.init(places: places)
    }

    init(places: [String]) {
        var unique: [String] = []
        for place in places where !unique.contains(place) { unique.append(place) }
        self.places = unique
    }

    /// The places that may hold a token directory now: memory-backed, and, but for a shared
    /// one with the sticky bit (`/dev/shm`), the user's own and closed to others.
    var usable: [String] {
        places.filter { place in
            var info = stat()
            guard lstat(place, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, Self.isMemoryBacked(place) else { return false }
            if info.st_uid == geteuid(), info.st_mode & 0o077 == 0 { return true }
            // A shared directory: only with the sticky bit can nobody else remove or rename ours.
            return info.st_mode & S_ISVTX != 0
        }
    }

    /// Makes a fresh directory in the first usable place and takes its flock; the directory's
    /// path and the descriptor that holds the flock (close it after removing the directory).
    public func create() throws -> (path: String, lock: Int32) {
        guard let place = usable.first else {
            throw KCAuthError(.configuration, "no memory-backed place for the token file: "
                              + places.joined(separator: ", ") + " are missing, not private or not a tmpfs",
                              hint: "run it in a login session (with a runtime directory), or mount a tmpfs on /dev/shm")
        }
        var template = Array((place + "/" + Self.prefix + "\(getpid())-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw KCAuthError(.configuration, "cannot create a directory in \(place): \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            rmdir(path)
            throw KCAuthError(.configuration, "cannot lock the token directory \(path): \(reason)")
        }
        return (path, fd)
    }

    /// Removes, in every usable place, the user's token directories whose process is gone and
    /// whose flock nobody holds, with what is in them (the token, a temporary file of a write cut short).
    public func removeLeftovers() {
        for place in usable {
            guard let dir = opendir(place) else { continue }
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasPrefix(Self.prefix) { names.append(name) }
            }
            closedir(dir)
            for name in names { removeIfLeftover(place + "/" + name, name: name) }
        }
    }

    /// The process a directory's name gives, if its name is one of ours.
    static func owner(_ name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.lastIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { return nil }
        return pid
    }

    private func removeIfLeftover(_ path: String, name: String) {
        guard let pid = Self.owner(name), kill(pid, 0) != 0, errno == ESRCH else { return }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { return }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // A live owner (in another PID namespace, say) holds the flock.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return }
        Self.empty(fd)
        rmdir(path)
    }

    /// Removes every file in the directory open at `fd` (it holds no subdirectories).
    static func empty(_ fd: Int32) {
        let copy = dup(fd)
        guard copy >= 0, let dir = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        for name in names { unlinkat(fd, name, 0) }
    }

    /// On tmpfs or ramfs: memory (and swap), gone at the next boot. The type of the file system
    /// the last mount point above `path` holds (/proc/self/mounts: Glibc's Swift module has no
    /// statfs(2), only statvfs(3), which does not tell the type).
    static func isMemoryBacked(_ path: String, mounts: String? = readMounts()) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        let canonical = String(cString: resolved)
        free(resolved)
        guard let mounts else { return false }
        var best: (point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = unescape(fields[1])
            let inside = point == "/" || canonical == point || canonical.hasPrefix(point + "/")
            // The last matching line wins among equals: a later mount hides an earlier one.
            if inside, point.count >= (best?.point.count ?? 0) { best = (point, String(fields[2])) }
        }
        return best?.type == "tmpfs" || best?.type == "ramfs"
    }

    static func readMounts() -> String? {
        let fd = open("/proc/self/mounts", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while bytes.count < 4 << 20 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A mount point as /proc/self/mounts writes it: space, tab, newline and backslash as `\ooo`.
    static func unescape(_ field: Substring) -> String {
        var out: [UInt8] = []
        let bytes = Array(field.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x5C, i + 3 < bytes.count,
               let value = UInt8(String(decoding: bytes[(i + 1)...(i + 3)], as: UTF8.self), radix: 8) {
                out.append(value)
                i += 4
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
