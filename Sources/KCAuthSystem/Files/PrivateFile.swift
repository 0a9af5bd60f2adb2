#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// Reading files that hold secrets, with the checks that make them worth trusting: a regular
/// file (never followed through a symlink), owned by this user, with no group or other bits.
/// The checks run on the open descriptor (`fstat`), so the file cannot be swapped in between.
enum PrivateFile {
    /// The file's contents, nil when it does not exist; `storageUnavailable` when it is unsafe.
    /// The contract's `secret` rule (``ContractFile``), the one the front reads the cache under.
    static func read(_ path: String) throws -> String? {
        switch ContractFile.read(path, rule: .secret) {
        case .absent: return nil
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .refused(let at, .accessibleToOthers(let mode)):
            throw refuse(at, "is accessible to group or others (mode \(octal(mode_t(mode))))",
                         fix: "`chmod 600 \(at)` if you trust it, or remove it and log in again")
        case .refused(let at, .ownedByAnotherUser(let uid)):
            throw refuse(at, "is owned by uid \(uid), not by you (uid \(geteuid()))", fix: "remove it")
        case .refused(let at, .symbolicLink): throw refuse(at, "is a symbolic link", fix: "remove it")
        case .refused(let at, .notRegularFile): throw refuse(at, "is not a regular file", fix: "remove it")
        case .refused(let at, let refusal): throw FileRefusalText.error(.storageUnavailable, path: at, refusal, fix: "remove it")
        }
    }

    /// Checks the directory a private file lives in: ours, and nobody else may write to it (or
    /// could swap files in it). With `repair` (before writing), a directory of ours that is open
    /// to group or others is closed to 0700 rather than refused: it is kcauth's own directory,
    /// and 0700 is what kcauth would have created.
    static func checkDirectory(_ path: String, repair: Bool) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw failure("use the directory", path) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw refuse(path, "is not a directory", fix: "remove it") }
        guard info.st_uid == geteuid() else {
            throw refuse(path, "is owned by uid \(info.st_uid), not by you (uid \(geteuid()))", fix: "remove it")
        }
        let mode = info.st_mode & 0o777
        if repair, mode & 0o077 != 0 {
            guard chmod(path, 0o700) == 0 else { throw failure("chmod 700", path) }
        } else if mode & 0o022 != 0 {
            throw refuse(path, "is writable by group or others (mode \(octal(mode)))", fix: "`chmod 700 \(path)`")
        }
    }

    /// Removes a private file and makes the removal durable (the directory synced), like the
    /// write that created it; false when there was none.
    static func remove(_ path: String, in directory: String) throws -> Bool {
        guard unlink(path) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return false }
            throw failure("remove", path)
        }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        return true
    }

    static func refuse(_ path: String, _ what: String, fix: String) -> KCAuthError {
        KCAuthError(.storageUnavailable, "refusing to use \(path): it \(what)", hint: fix)
    }

    static func failure(_ verb: String, _ path: String) -> KCAuthError {
        KCAuthError(.storageUnavailable, "cannot \(verb) \(path): \(String(cString: strerror(errno)))")
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
