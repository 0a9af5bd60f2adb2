#if canImport(Glibc)
import Glibc
#endif

/// The profile chosen by the directory: a `.kcauth-profile` file holding one
/// profile name, in the current directory or the nearest parent, selects the profile for every
/// command; `--profile` and `KCAUTH_PROFILE` come before it, `default_profile` after it.
///
/// It carries a name and nothing else: it can only pick one of the user's own profiles (the
/// full program checks that the configuration has it), so a cloned repository cannot point
/// kcauth at another issuer. And it is trusted only as the configuration file is
/// (``FileRule/configuration``: owned by the user or root, writable by nobody else); any other
/// file is ignored, with a warning from the full program — the front hands off in that case, so
/// that the warning is said, and said once.
public enum DirectoryProfile {
    public static let fileName = ".kcauth-profile"

    public enum Finding: Sendable, Equatable {
        /// No file from the directory up to `/`.
        case none
        /// The nearest file names this profile.
        case named(String, path: String)
        /// The nearest file is not to be trusted, or holds no profile name.
        case ignored(path: String, Reason)
    }

    public enum Reason: Sendable, Equatable {
        case refused(FileRefusal)
        case notAProfileName
    }

    /// The nearest file from `directory` (absolute) up; `.none` without a directory. One
    /// `lstat` per level until a file is found.
    public static func find(from directory: String?, euid: uid_t = geteuid()) -> Finding {
        guard var current = directory, ASCIIText.isAbsolute(current) else { return .none }
        while true {
            let path = (current == "/" ? "" : current) + "/" + fileName
            var info = stat()
            if lstat(path, &info) == 0 {
                switch ContractFile.read(path, rule: .configuration, limit: 256, euid: euid) {
                case .absent: break  // gone meanwhile: as if never there
                case .refused(_, let why): return .ignored(path: path, .refused(why))
                case .bytes(let bytes):
                    let name = trimmed(bytes)
                    guard ProfileNameRule.isValid(name) else { return .ignored(path: path, .notAProfileName) }
                    return .named(name, path: path)
                }
            }
            if current == "/" { return .none }
            current = ContractFile.parent(current)
        }
    }

    /// The process's working directory; nil when it cannot be had (removed, too long).
    public static func workingDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return buffer.withUnsafeBufferPointer { ASCIIText.string(cString: $0.baseAddress!) }
    }

    /// The text without surrounding spaces, tabs and line ends (one line, as an editor saves it).
    static func trimmed(_ bytes: [UInt8]) -> String {
        func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
