#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// The file side of `kcauth kubeconfig --merge`, done the way kubectl does it: under kubectl's
/// lock (`KubeconfigLock`), read with a bound, and written through a symbolic link to its
/// target (kubectl writes the file a link points to, so `~/.kube/config` kept in a dotfile
/// repository stays a link). Unlike kubectl, the write is atomic (`AtomicFile`), so a reader
/// never sees half a kubeconfig.
public enum KubeconfigFile {
    /// Far more than a kubeconfig with many clusters and embedded certificates.
    public static let sizeLimit = 16 << 20

    /// Reads `path` (nil when it does not exist), lets `change` make the new text, keeps the old
    /// text in `path.bak` and writes the new one, all under the lock. Returns whether there was
    /// an old file.
    public static func update(_ path: String, _ change: (String?) throws -> String) throws -> Bool {
        // Checked before the lock too, so that a device or a FIFO gets no FILE.lock next to it.
        _ = try writableTarget(path)
        try AtomicFile.makeDirectory(parent(path))
        try KubeconfigLock.acquire(path)
        defer { KubeconfigLock.release(path) }
        let target = try writableTarget(path)
        let old = try read(target)
        let new = try change(old)
        // A kubeconfig holds cluster credentials: the backup is as private as the new file.
        if let old { try AtomicFile.write(old, to: path + ".bak") }
        try AtomicFile.write(new, to: target)
        return old != nil
    }

    /// The file to replace: `path` itself, or the final target of a link at `path`.
    static func writableTarget(_ path: String) throws -> String {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return path }
            throw failure("use", path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return path
        case S_IFLNK:
            guard let real = realpath(path, nil) else {
                throw refuse(path, "is a symbolic link to a missing file", fix: "create the file it points to, or remove the link")
            }
            defer { free(real) }
            let target = String(cString: real)
            guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw refuse(path, "is a symbolic link to something that is not a regular file", fix: "point it at a kubeconfig file")
            }
            return target
        default:
            throw refuse(path, "is not a regular file", fix: "name a kubeconfig file")
        }
    }

    /// The file's text, nil when it does not exist. A FIFO, a device or anything but a regular
    /// file is refused before the first read (O_NONBLOCK: opening a FIFO would wait for a
    /// writer), and no more than `sizeLimit` bytes are read, even from a file that grows.
    static func read(_ path: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("read", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("read", path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refuse(path, "is not a regular file", fix: "name a kubeconfig file") }
        guard info.st_size <= sizeLimit else { throw tooLarge(path) }
        let bytes = try AtomicFile.readBytes(fd, path: path, limit: sizeLimit, tooLarge: { tooLarge(path) })
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw KCAuthError(.configuration, "\(path) is not UTF-8 text", hint: "check the file; kcauth left it unchanged")
        }
        return text
    }

    static func parent(_ path: String) -> String { ContractFile.parent(path) }

    private static func tooLarge(_ path: String) -> KCAuthError {
        KCAuthError(.configuration, "\(path) is larger than \(sizeLimit >> 20) MiB, which no kubeconfig is",
                    hint: "check what the file is; kcauth left it unchanged")
    }

    private static func refuse(_ path: String, _ what: String, fix: String) -> KCAuthError {
        KCAuthError(.configuration, "refusing to merge into \(path): it \(what)", hint: fix)
    }

    private static func failure(_ verb: String, _ path: String) -> KCAuthError {
        KCAuthError(.configuration, "cannot \(verb) \(path): \(String(cString: strerror(errno)))")
    }
}
