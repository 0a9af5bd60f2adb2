#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// Reads client credentials (a secret, a platform's assertion) from the process environment and
/// from files such as mounted Kubernetes or Docker secrets.
///
/// Unlike kcauth's own private files, these belong to the platform: symbolic links are followed
/// (Kubernetes mounts every secret and projected token through `..data/` links) and group-readable
/// modes are accepted (Kubernetes' default `defaultMode` is 0644). What is enforced: a regular
/// file (a FIFO or a device would block or never end), a size cap, and no content in any message.
public struct SystemCredentialReader: CredentialReader {
    private let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public func environmentValue(_ name: String) -> String? {
        environment[name]
    }

    public func readFile(_ path: String, limit: Int) throws -> [UInt8] {
        // O_NONBLOCK: opening a FIFO with no writer must not hang; fstat then refuses it.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Self.failure(path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.failure(path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw KCAuthError(.configuration, "cannot use \(path): it is not a regular file")
        }
        guard info.st_size <= limit else {
            throw KCAuthError(.configuration, "cannot use \(path): it is larger than \(limit) bytes, too large for a client credential")
        }
        // Read one byte past the cap, in case the file grew after fstat.
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var total = 0
        while total < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Self.failure(path) }
            if n == 0 { break }
            total += n
        }
        guard total <= limit else {
            throw KCAuthError(.configuration, "cannot use \(path): it is larger than \(limit) bytes, too large for a client credential")
        }
        return Array(bytes.prefix(total))
    }

    private static func failure(_ path: String) -> KCAuthError {
        let reason = String(cString: strerror(errno))
        return KCAuthError(.configuration, "cannot read \(path): \(reason)")
    }
}
