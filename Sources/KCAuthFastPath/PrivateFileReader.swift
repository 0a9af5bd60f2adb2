#if canImport(Glibc)
import Glibc
#endif

/// One `open` + `fstat` + `read` of a small file, for ``FastTokenPath``.
///
/// With `mustBePrivate`, the file must be what the runtime token cache trusts (RuntimeTokenCache):
/// not a symlink (`O_NOFOLLOW`), owned by this user, no permissions for group or others. A
/// directory passes that test too (its bytes are then empty: only its metadata is wanted).
/// Files over 64 KiB are not read: nothing the fast path serves is that large.
enum PrivateFileReader {
    static let limit = 65_536

    static func read(_ path: String, mustBePrivate: Bool) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (mustBePrivate ? O_NOFOLLOW : 0))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let type = st.st_mode & S_IFMT
        if mustBePrivate {
            guard st.st_uid == getuid(), st.st_mode & 0o077 == 0 else { return nil }
            if type == S_IFDIR { return [] }
        }
        guard type == S_IFREG, st.st_size <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, limit + 1 - count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { return nil }
        return Array(bytes[..<count])
    }
}
