#if canImport(Glibc)
import Glibc
#endif

/// Whether a program file may be executed on this user's behalf: the file and every directory
/// above it can be changed only by root or this user, so nobody else can replace it between the
/// check and the `execv` (the same rule as OpenSSH's `safe_path` for its helpers).
///
/// - the file: a regular file (not a symlink: `lstat`), executable, owned by root or the
///   effective user, not writable by group or others;
/// - each directory up to `/`: a real directory owned by root or the effective user, not writable
///   by group or others — unless sticky (`/tmp`): there others cannot rename or remove entries
///   they do not own, so what the checked entries below it name stays put.
enum TrustedExecutable: Equatable {
    case trusted
    case absent
    case untrusted(String)

    static func check(_ path: String, euid: uid_t) -> TrustedExecutable {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .absent : .untrusted("cannot inspect it (\(describe(errno)))")
        }
        let type = st.st_mode & S_IFMT
        guard type == S_IFREG else { return .untrusted(type == S_IFLNK ? "it is a symbolic link" : "it is not a regular file") }
        guard st.st_mode & 0o111 != 0 else { return .untrusted("it is not executable") }
        if let problem = ownership(st, euid: euid, what: "it") { return .untrusted(problem) }

        var directory = FullProgram.parent(path)
        while true {
            guard lstat(directory, &st) == 0 else { return .untrusted("cannot inspect \(directory) (\(describe(errno)))") }
            guard st.st_mode & S_IFMT == S_IFDIR else { return .untrusted("\(directory) is not a directory") }
            if let problem = ownership(st, euid: euid, what: directory, stickyAllowed: true) { return .untrusted(problem) }
            if directory == "/" || directory == "." { return .trusted }
            directory = FullProgram.parent(directory)
        }
    }

    private static func ownership(_ st: stat, euid: uid_t, what: String, stickyAllowed: Bool = false) -> String? {
        guard st.st_uid == 0 || st.st_uid == euid else { return "\(what) is owned by another user (uid \(st.st_uid))" }
        if st.st_mode & 0o022 != 0, !(stickyAllowed && st.st_mode & S_ISVTX != 0) {
            return "\(what) is writable by group or others"
        }
        return nil
    }

    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
