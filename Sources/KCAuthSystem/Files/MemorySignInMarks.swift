#if canImport(Glibc)
import Glibc
#endif
import KCAuthContract
import KCAuthCore

/// ``MemorySignIns`` as empty files beside the session marks, in the directory found by uid
/// alone (``Paths/lockDirectory(uid:)``), so a cron job or another terminal of the user sees the
/// note too: `<profile>.<16 hex digits>.memory`, the digits a hash of the configuration file's
/// path, since a profile name means a profile of one configuration (a test's, a container's).
/// Best effort: a note that cannot be kept only makes the later message the store's own.
public struct MemorySignInMarks: MemorySignIns {
    let configFile: String
    let directory: @Sendable () -> String?

    public init(configFile: String, directory: @escaping @Sendable () -> String? = { Paths.lockDirectory() }) {
        self.configFile = configFile
        self.directory = directory
    }

    func file(_ profile: String) -> String? {
        guard let directory = directory(), ProfileNameRule.isValid(profile) else { return nil }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a, 64 bits: a name, not a secret
        for b in configFile.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return directory + "/" + profile + "." + String(repeating: "0", count: 16 - hex.count) + hex + ".memory"
    }

    public func note(profile: String) {
        guard let path = file(profile), ContractPaths.makeDirectories(ContractFile.parent(path)),
              case .bytes = ContractFile.checkDirectory(ContractFile.parent(path), rule: .secret, mayBeAbsent: false) else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        if fd >= 0 { close(fd) }
    }

    public func noted(profile: String) -> Bool {
        guard let path = file(profile) else { return false }
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid()
    }

    public func forget(profile: String) {
        if let path = file(profile) { unlink(path) }
    }
}
