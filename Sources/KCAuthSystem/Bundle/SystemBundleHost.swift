#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// The real ``BundleHost``: this machine's facts, a private run directory for the bundle's
/// trace, and the archive (``TarArchive``, ``Gzip``) written atomically.
public struct SystemBundleHost: BundleHost {
    public init() {}

    public func facts() -> HostFacts {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let osRelease = (try? AtomicFile.read("/etc/os-release")) ?? (try? AtomicFile.read("/usr/lib/os-release")) ?? nil
        return HostFacts(osRelease: osRelease ?? "", uname: [field(names.sysname), field(names.release), field(names.version), field(names.machine)],
                         executable: Self.executable(), libraries: LoadedLibraries.all())
    }

    static func executable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func checkTarget(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK { throw FileRefusalText.error(.configuration, path: path, .symbolicLink, fix: "remove it") }
            if info.st_mode & S_IFMT != S_IFREG {
                throw FileRefusalText.error(.configuration, path: path, .notRegularFile, fix: "choose another file name")
            }
            return
        }
        let directory = Self.directory(of: path)
        var dirInfo = stat()
        guard stat(directory, &dirInfo) == 0, dirInfo.st_mode & S_IFMT == S_IFDIR else {
            throw KCAuthError(.configuration, "cannot write \(path): the directory \(directory) does not exist",
                              hint: "create it first, or choose another file name")
        }
    }

    public func privateDirectory() throws -> String { try PrivateRunDirectory.create(prefix: "bundle-") }

    public func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw KCAuthError(.internal, "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        return try AtomicFile.readBytes(fd, path: path)
    }

    public func remove(_ directory: String) {
        // Only what the bundle put there: it makes no subdirectories.
        if let dir = opendir(directory) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != ".", name != ".." { names.append(name) }
            }
            closedir(dir)
            PrivateRunDirectory.remove(directory, files: names)
        } else {
            rmdir(directory)
        }
    }

    public func write(_ members: [BundleMember], to path: String) throws {
        try checkTarget(path)
        var archive = TarArchive(modified: time(nil))
        for member in members { archive.append(member) }
        try AtomicFile.write(bytes: try Gzip.compress(archive.finished), to: path)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
