#if canImport(Glibc)
import Glibc
#endif

/// `KCAUTH_DEBUG_FILE`: the file a trace is appended to instead of standard error. Opened the
/// same way by both programs (the front writes its line, then `kcauth-full` appends): created
/// mode 0600 when absent; a symbolic link is never followed (`O_NOFOLLOW`), and an existing file
/// must be a regular file of this user that nobody else may read or write (``FileRule/secret``,
/// checked on the open descriptor).
public enum TraceFile {
    /// A descriptor open for appending (close-on-exec, so no child inherits it), or why not.
    public static func open(_ path: String, euid: uid_t = geteuid()) -> Result<Int32, FileRefusal> {
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode_t(0o600))
        guard fd >= 0 else {
            let code = errno
            return .failure(code == ELOOP ? .symbolicLink : .failed(errno: code))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            return .failure(.failed(errno: code))
        }
        if let refusal = FileRule.secret.check(info, euid: euid) {
            close(fd)
            return .failure(refusal)
        }
        // Writes may block on a slow disk, never on a FIFO (refused above): blocking again.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }
}
