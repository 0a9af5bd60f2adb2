#if canImport(Glibc)
import Glibc
#endif
import KCAuthCore

/// kubectl's lock on a kubeconfig (client-go's clientcmd: `lockFile`/`unlockFile`): the file
/// `FILE.lock`, created with O_CREAT|O_EXCL before FILE is changed and removed after. It is a
/// convention, not a kernel lock, so it works only because every writer follows it: kcauth
/// takes the same name, so it neither loses an entry to a concurrent `kubectl config` or
/// `kcauth kubeconfig --merge`, nor has one of them lose its own. kubectl gives up at once
/// when the lock exists; kcauth waits a little, because several merges started together (a
/// provisioning script) are the common case.
public enum KubeconfigLock {
    /// How long to wait for another writer, in milliseconds.
    public static let patience = 10_000

    /// `file` as the person named it: kubectl locks the name it was given, not a link's target.
    public static func path(of file: String) -> String { file + ".lock" }

    /// Takes the lock, waiting up to `patience` for another writer to release it.
    public static func acquire(_ file: String) throws {
        let path = path(of: file)
        var waited = 0
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 {
                close(fd)
                return
            }
            guard errno == EEXIST else {
                throw KCAuthError(.configuration, "cannot create the lock \(path): \(String(cString: strerror(errno)))")
            }
            guard waited < Self.patience else {
                throw KCAuthError(.configuration, "\(path) exists: kubectl or kcauth is changing \(file), or one was stopped while it did",
                                  hint: "if neither is running, remove \(path) and run the command again")
            }
            // A short, varying pause: writers started together do not retry in step.
            let pause = 10 + Int.random(in: 0..<30)
            usleep(UInt32(pause * 1000))
            waited += pause
        }
    }

    public static func release(_ file: String) { unlink(path(of: file)) }
}
