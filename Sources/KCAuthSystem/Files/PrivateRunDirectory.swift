import Glibc
import KCAuthContract
import KCAuthCore

/// A fresh private directory for one run: `kcauth ssh`'s socket, ssh's control socket and the
/// record `kcauth status` reads (prefix `forward-`), or `exec --keep-fresh`'s token file
/// (`token-`). A 0700 directory (mkdtemp) in the uid-bound shared directory, which is checked
/// (ours, 0700) first.
public enum PrivateRunDirectory {
    public static func create(prefix: String) throws -> String {
        let base = try FileProfileLock.prepare(Paths.lockDirectory())
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw KCAuthError(.configuration, "cannot create a directory in \(base): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the directory and what kcauth put in it (files only: it has no subdirectories).
    public static func remove(_ path: String, files: [String]) {
        for file in files { unlink(path + "/" + file) }
        rmdir(path)
    }

    /// Writes a small file 0600 (the forward's record).
    public static func write(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
    }
}
