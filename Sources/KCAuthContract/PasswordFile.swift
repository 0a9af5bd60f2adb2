#if canImport(Glibc)
import Glibc
#endif

/// A user's home directory from `/etc/passwd`, read as a file.
///
/// Not `getpwuid_r`: the static front cannot use NSS (glibc warns that a static binary calling
/// it needs the shared NSS modules at run time), and both programs must find the same place. So
/// both read `/etc/passwd` first; only the full program then asks NSS (`Paths.lockDirectory`)
/// for a user the file does not list (LDAP, sssd), and the front hands off in that case.
public enum PasswordFile {
    public static let path = "/etc/passwd"

    /// The home of `uid` in `/etc/passwd`: absolute, not `/`; nil when not listed or unusable.
    public static func home(uid: uid_t, path: String = path) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, let bytes = ContractFile.readAll(fd, expected: Int(info.st_size), limit: 4 << 20) else { return nil }
        return home(uid: uid, in: bytes)
    }

    static func home(uid: uid_t, in bytes: [UInt8]) -> String? {
        let wanted = String(uid)
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            // name:password:uid:gid:gecos:home:shell
            let fields = line.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard fields.count >= 7, String(decoding: fields[2], as: UTF8.self) == wanted else { continue }
            return usable(String(decoding: fields[5], as: UTF8.self))
        }
        return nil
    }

    /// A home that can hold the user's private directories.
    public static func usable(_ home: String) -> String? {
        guard home.hasPrefix("/"), home != "/", !home.utf8.contains(0) else { return nil }
        return home.hasSuffix("/") ? String(home.dropLast()) : home
    }
}
