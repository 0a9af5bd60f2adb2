#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
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

    /// The file's text; nil when it (or its directory) does not exist. Read under the contract's
    /// `configuration` rule (``ContractFile``), the rule the front reads it under too.
    static func read(_ path: String) throws -> String? {
        let bytes: [UInt8]
        switch ContractFile.read(path, rule: .configuration, limit: sizeLimit) {
        case .absent: return nil
        case .bytes(let b): bytes = b
        case .refused(let at, let refusal): throw error(at, refusal)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw KCAuthError(.configuration, "\(path) is not UTF-8 text", hint: "save it as UTF-8; kcauth never rewrites a file it cannot read")
        }
        return text
    }

    /// The words of a refusal, for the configuration file or its directory.
    static func error(_ path: String, _ refusal: FileRefusal) -> KCAuthError {
        switch refusal {
        case .notRegularFile: return refuse(path, "is not a regular file", fix: "replace it with a text file")
        case .notDirectory: return refuse(path, "is not a directory", fix: "remove it")
        case .ownedByAnotherUser(let uid):
            return refuse(path, "is owned by uid \(uid), not by you (uid \(geteuid()))", fix: "remove it, or `chown` it back to you")
        case .writableByOthers(let mode), .accessibleToOthers(let mode):
            var info = stat()
            let isDirectory = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            return refuse(path, "is writable by group or others (mode \(FileRefusal.octal(mode)))",
                          fix: isDirectory ? "`chmod 700 \(path)`" : "`chmod 600 \(path)`")
        case .tooLarge: return tooLarge(path)
        case .symbolicLink: return refuse(path, "is a symbolic link", fix: "remove it")
        case .failed(let code): return KCAuthError(.configuration, "cannot read \(path): \(String(cString: strerror(code)))")
        }
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
        if case .refused(let at, let refusal) = ContractFile.checkDirectory(path, rule: .configuration, mayBeAbsent: true) {
            throw error(at, refusal)
        }
    }

    /// The link's final target, nil when it does not resolve.
    static func resolved(_ path: String) -> String? { ContractFile.realPath(path) }

    static func parent(_ path: String) -> String { ContractFile.parent(path) }

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
