#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// Reading files that hold secrets, with the checks that make them worth trusting: a regular
/// file (never followed through a symlink), owned by this user, with no group or other bits.
/// The checks run on the open descriptor (`fstat`), so the file cannot be swapped in between.
enum PrivateFile {
    /// The file's contents, nil when it does not exist; `storageUnavailable` when it is unsafe.
    static func read(_ path: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw refuse(path, "is a symbolic link", fix: "remove it") }
            throw failure("read", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("read", path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refuse(path, "is not a regular file", fix: "remove it") }
        try checkOwnerAndMode(info, path: path, fix: "`chmod 600 \(path)` if you trust it, or remove it and log in again")

        return try AtomicFile.readToEnd(fd, path: path)
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

    private static func checkOwnerAndMode(_ info: stat, path: String, fix: String) throws {
        guard info.st_uid == geteuid() else {
            throw refuse(path, "is owned by uid \(info.st_uid), not by you (uid \(geteuid()))", fix: "remove it")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw refuse(path, "is accessible to group or others (mode \(octal(mode)))", fix: fix)
        }
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
