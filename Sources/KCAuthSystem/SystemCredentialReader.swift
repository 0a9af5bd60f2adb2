#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// Reads client credentials (a secret, a platform's assertion) from the process environment and
/// from files such as mounted Kubernetes or Docker secrets.
///
/// Unlike kcauth's own private files, these belong to the platform: the contract's `credential`
/// rule (``FileRule``) follows symbolic links (Kubernetes mounts every secret and projected token
/// through `..data/` links) and accepts files readable by others (Kubernetes' default
/// `defaultMode` is 0644), but only from this user or root, writable by nobody else. What is
/// also enforced: a regular file (a FIFO or a device would block or never end), a size cap, and
/// no content in any message.
public struct SystemCredentialReader: CredentialReader {
    private let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public func environmentValue(_ name: String) -> String? {
        environment[name]
    }

    public func readFile(_ path: String, limit: Int) throws -> [UInt8] {
        switch ContractFile.read(path, rule: .credential, limit: limit) {
        case .bytes(let bytes): return bytes
        case .absent: throw KCAuthError(.configuration, "cannot read \(path): \(String(cString: strerror(ENOENT)))")
        case .refused(_, .tooLarge):
            throw KCAuthError(.configuration, "cannot use \(path): it is larger than \(limit) bytes, too large for a client credential")
        case .refused(_, .notRegularFile):
            throw KCAuthError(.configuration, "cannot use \(path): it is not a regular file")
        case .refused(let where_, let refusal):
            throw FileRefusalText.error(.configuration, path: where_, refusal, fix: "make it yours (or root's) with `chmod 600 \(where_)`")
        }
    }

    private static func failure(_ path: String) -> KCAuthError {
        let reason = String(cString: strerror(errno))
        return KCAuthError(.configuration, "cannot read \(path): \(reason)")
    }
}
