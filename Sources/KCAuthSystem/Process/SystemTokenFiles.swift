#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// The real ``TokenFiles``: a private run directory (``PrivateRunDirectory``, prefix `token-`)
/// and atomic 0600 writes (``AtomicFile``).
public struct SystemTokenFiles: TokenFiles {
    public init() {}

    public func makePrivateDirectory() throws -> String { try PrivateRunDirectory.create(prefix: "token-") }

    public func write(_ text: String, to path: String) throws { try AtomicFile.write(text, to: path) }

    public func remove(_ path: String, directory: String?) {
        unlink(path)
        if let directory { rmdir(directory) }
    }
}
