#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// The file-system side of the configuration file: it decides where kcauth sends people to sign
/// in (issuer, CA file), so it is read only from places no other user can change, and it is read
/// defensively (a FIFO, a device or a huge file must not hang or exhaust kcauth).
///
/// Symbolic links are followed on purpose: dotfile managers link `~/.config/kcauth/config` into a
/// repository, and a rewrite goes to the link's target so the link survives.
enum ConfigFile {
    /// Far more than any real configuration; a cap so that a mistake cannot exhaust memory.
    static let sizeLimit = 1 << 20

    /// The file's text; nil when it (or its directory) does not exist.
    static func read(_ path: String) throws -> String? {
        try checkDirectory(of: path)
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. Regular
        // files ignore the flag, and anything else is refused below before a single read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("read", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("read", path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refuse(path, "is not a regular file", fix: "replace it with a text file") }
        try checkOwnerAndMode(info, path, fix: "`chmod 600 \(path)`")
        if let target = resolved(path), parent(target) != parent(path) { try checkDirectory(parent(target)) }
        guard info.st_size <= sizeLimit else { throw tooLarge(path) }

        // The limit again while reading: the file may have grown after fstat.
        let bytes = try AtomicFile.readBytes(fd, path: path, limit: sizeLimit, tooLarge: { tooLarge(path) })
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw KCAuthError(.configuration, "\(path) is not UTF-8 text", hint: "save it as UTF-8; kcauth never rewrites a file it cannot read")
        }
        return text
    }

    /// Writes atomically (`AtomicFile`) to the file, or through a symbolic link to its target.
    static func write(_ text: String, to path: String) throws {
        var info = stat()
        var target = path
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK:
                guard let real = resolved(path) else {
                    throw refuse(path, "is a symbolic link to a missing file", fix: "create the file it points to, or remove the link")
                }
                target = real
            default:
                throw refuse(path, "is not a regular file", fix: "replace it with a text file")
            }
        }
        try AtomicFile.makeDirectory(parent(path))
        try checkDirectory(parent(path))
        if target != path {
            guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw refuse(path, "is a symbolic link to something that is not a regular file", fix: "point it at a text file")
            }
            try checkDirectory(parent(target))
        }
        try AtomicFile.write(text, to: target)
    }

    /// The directory must be ours (or root's) and writable by nobody else: whoever can write to it
    /// can replace the file and send the next login to their own issuer. Readable is fine: nothing
    /// in it is secret.
    static func checkDirectory(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return }  // created 0700 on the first write
            throw failure("use the directory", path)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw refuse(path, "is not a directory", fix: "remove it") }
        try checkOwnerAndMode(info, path, fix: "`chmod 700 \(path)`")
    }

    private static func checkDirectory(of file: String) throws { try checkDirectory(parent(file)) }

    private static func checkOwnerAndMode(_ info: stat, _ path: String, fix: String) throws {
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw refuse(path, "is owned by uid \(info.st_uid), not by you (uid \(geteuid()))", fix: "remove it, or `chown` it back to you")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o022 == 0 else {
            throw refuse(path, "is writable by group or others (mode \(PrivateFile.octal(mode)))", fix: fix)
        }
    }

    /// The link's final target, nil when it does not resolve.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func tooLarge(_ path: String) -> KCAuthError {
        KCAuthError(.configuration, "\(path) is larger than \(sizeLimit / 1024 / 1024) MiB, which no kcauth configuration is",
                    hint: "check what the file is; kcauth never rewrites a file it cannot read")
    }

    private static func refuse(_ path: String, _ what: String, fix: String) -> KCAuthError {
        KCAuthError(.configuration, "refusing to use \(path): it \(what)", hint: fix)
    }

    private static func failure(_ verb: String, _ path: String) -> KCAuthError {
        KCAuthError(.configuration, "cannot \(verb) \(path): \(String(cString: strerror(errno)))")
    }
}
