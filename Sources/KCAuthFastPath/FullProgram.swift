#if canImport(Glibc)
import Glibc
#endif

/// Where the full program (`kcauth-full`) lives, found from the front's own file — never from
/// `PATH`, which the user or a script controls, and never a file that someone else could replace.
///
/// The shipped `kcauth` is a small static executable (the fast path only: a static program maps
/// and relocates almost nothing, docs/performance.md §4); everything else is the dynamically linked
/// full program, which the front `exec`s (``HandOff``). Two layouts:
/// - installed: `PREFIX/bin/kcauth` and `PREFIX/libexec/kcauth/kcauth-full` (GNU's libexecdir for
///   programs run by other programs, not by users; Debian: `/usr/libexec/kcauth/kcauth-full`);
/// - a build tree: both in one directory (`.build/debug/kcauth` and `.build/debug/kcauth-full`).
public enum FullProgram {
    public static let name = "kcauth-full"

    /// Why no full program can be run.
    public enum Refusal: Error, Equatable, Sendable {
        /// Neither candidate exists.
        case missing([String])
        /// The path exists but is not a file only root or this user can change.
        case unsafe(path: String, reason: String)
    }

    /// For the front at `/usr/bin/kcauth`: `/usr/libexec/kcauth/kcauth-full`, then
    /// `/usr/bin/kcauth-full`. `front` is the kernel's canonical path (`/proc/self/exe`), so its
    /// lexical parent is its real parent and no `..` is needed.
    public static func candidates(front: String) -> [String] {
        let directory = parent(front)
        let prefix = parent(directory)
        return [(prefix == "/" ? "" : prefix) + "/libexec/kcauth/" + name, (directory == "/" ? "" : directory) + "/" + name]
    }

    /// The first candidate that exists, if it is safe to run; the first one that exists decides,
    /// so an unsafe installed copy is refused rather than passed over.
    public static func locate(front: String, euid: uid_t = geteuid()) -> Result<String, Refusal> {
        let paths = candidates(front: front)
        for path in paths {
            switch TrustedExecutable.check(path, euid: euid) {
            case .trusted: return .success(path)
            case .absent: continue
            case .untrusted(let reason): return .failure(.unsafe(path: path, reason: reason))
            }
        }
        return .failure(.missing(paths))
    }

    /// `/a/b/c` → `/a/b`; `/a` → `/`.
    static func parent(_ path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    }
}
