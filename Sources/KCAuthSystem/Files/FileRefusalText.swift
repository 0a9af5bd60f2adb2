#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// A contract ``FileRefusal`` as one error line with its fix: the words of every file check.
public enum FileRefusalText {
    public static func error(_ code: KCAuthError.Code, path: String, _ refusal: FileRefusal, fix: String) -> KCAuthError {
        switch refusal {
        case .symbolicLink:
            return KCAuthError(code, "refusing to use \(path): it is a symbolic link", hint: "remove it")
        case .notRegularFile:
            return KCAuthError(code, "refusing to use \(path): it is not a regular file", hint: "replace it with a regular file")
        case .notDirectory:
            return KCAuthError(code, "refusing to use \(path): it is not a directory", hint: "remove it")
        case .ownedByAnotherUser(let uid):
            return KCAuthError(code, "refusing to use \(path): it is owned by uid \(uid), not by you (uid \(geteuid()))",
                               hint: "remove it, or `chown` it back to you")
        case .writableByOthers(let mode):
            return KCAuthError(code, "refusing to use \(path): it is writable by group or others (mode \(FileRefusal.octal(mode)))", hint: fix)
        case .accessibleToOthers(let mode):
            return KCAuthError(code, "refusing to use \(path): it is accessible to group or others (mode \(FileRefusal.octal(mode)))", hint: fix)
        case .tooLarge(let limit):
            return KCAuthError(code, "\(path) is larger than \(size(limit)), which it never is", hint: "check what the file is")
        case .failed(let errno):
            return KCAuthError(code, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// A size limit exactly as the rule has it: in bytes, or in KiB or MiB when it is a whole
    /// number of them (`.kcauth-profile`'s 256 bytes are not "0 KiB").
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
