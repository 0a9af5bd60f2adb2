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
        guard type == S_IFREG, st.st_size >= 0, st.st_size <= limit else { return nil }
        // A buffer of the file's size and one byte more (to see it grow while read), uninitialised:
        // zeroing a 64 KiB buffer per file was a third of a warm token's instructions (memset and the
        // page faults of 16 fresh pages), with the static front (docs/performance.md §6).
        let capacity = min(Int(st.st_size), limit) + 1
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
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
        // All of it, and no more than fstat said: a file that grew while read is left to the full
        // program (the cache and the configuration are replaced atomically, so this is rare).
        guard !failed, bytes.count < capacity else { return nil }
        return bytes
    }
}
