#if canImport(Glibc)
import Glibc
#endif

/// Who may own and change the files kcauth trusts. One rule per kind of file, applied by both
/// programs to the descriptor they read (`fstat`), so a file cannot be swapped between the check
/// and the read. The effective uid is the user kcauth acts for (`geteuid`, never `getuid`).
public enum FileRule: Sendable, Equatable {
    /// Secrets kcauth writes itself (the runtime token cache, the file store, session marks):
    /// not a symbolic link, owned by this user, no permission bits for group or others.
    case secret
    /// The configuration file and its directory: it decides where people sign in (issuer, CA
    /// file), so only this user or root may be able to change it (owner this user or root, not
    /// writable by group or others). Readable is fine: nothing in it is secret. Symbolic links
    /// are followed (dotfile managers), and the target's directory is held to the same rule.
    case configuration
    /// Credentials the user points kcauth at (client secret files, client keys, assertion files):
    /// owned by this user or by root, and writable by nobody else. A file owned by any other user
    /// is refused: that user could replace the credential (and reads it). Readable by others is
    /// accepted, because that is how systems hand secrets to services: a Kubernetes secret volume
    /// is root-owned, mode 0644 unless the pod sets `defaultMode: 0400` (docs/security.md).
    /// Symbolic links are followed (Kubernetes mounts secrets through `..data/` links).
    case credential

    /// The refusal for a file (or, with `directory`, a directory) with this metadata; nil when
    /// it may be used.
    public func check(_ info: stat, euid: uid_t = geteuid(), directory: Bool = false) -> FileRefusal? {
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { return .symbolicLink }
        if directory { guard type == S_IFDIR else { return .notDirectory } } else { guard type == S_IFREG else { return .notRegularFile } }
        let mode = UInt32(info.st_mode & 0o7777)
        let owner = UInt32(info.st_uid)
        switch self {
        case .secret:
            guard info.st_uid == euid else { return .ownedByAnotherUser(uid: owner) }
            // A directory needs only to be closed to writers; a file to everyone else.
            if directory { return mode & 0o022 == 0 ? nil : .writableByOthers(mode: mode) }
            return mode & 0o077 == 0 ? nil : .accessibleToOthers(mode: mode)
        case .configuration:
            guard info.st_uid == euid || info.st_uid == 0 else { return .ownedByAnotherUser(uid: owner) }
            return mode & 0o022 == 0 ? nil : .writableByOthers(mode: mode)
        case .credential:
            guard info.st_uid == euid || info.st_uid == 0 else { return .ownedByAnotherUser(uid: owner) }
            return mode & 0o022 == 0 ? nil : .writableByOthers(mode: mode)
        }
    }
}
