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

    /// Byte by byte, line by line, up to the first line of `uid` (as getpwuid does): the uid field
    /// compared as digits (no `String(uid)`, no `split`), only that line's home made a String.
    static func home(uid: uid_t, in bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { b in
            var start = 0
            while start < b.count {
                var end = start
                while end < b.count, b[end] != 0x0A { end += 1 }
                // name:password:uid:gid:gecos:home:shell — the colons of this line, up to six.
                var colons = (0, 0, 0, 0, 0, 0), found = 0, i = start
                while i < end, found < 6 {
                    if b[i] == 0x3A {
                        switch found {
                        case 0: colons.0 = i
                        case 1: colons.1 = i
                        case 2: colons.2 = i
                        case 3: colons.3 = i
                        case 4: colons.4 = i
                        default: colons.5 = i
                        }
                        found += 1
                    }
                    i += 1
                }
                // Seven fields: six colons (a seventh field may be empty or hold more colons).
                if found == 6, matches(uid, b, colons.1 + 1, colons.2) {
                    return usable(String(decoding: UnsafeBufferPointer(rebasing: b[(colons.4 + 1)..<colons.5]), as: UTF8.self))
                }
                start = end + 1
            }
            return nil
        }
    }

    /// Whether `b[lo..<hi]` is exactly `String(uid)`: decimal digits, no sign, no leading zero.
    static func matches(_ uid: uid_t, _ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Bool {
        guard hi > lo, hi - lo <= 10, b[lo] != 0x30 || hi - lo == 1 else { return false }
        var v: UInt64 = 0
        var i = lo
        while i < hi {
            let c = b[i]
            guard c >= 0x30 && c <= 0x39 else { return false }
            v = v * 10 + UInt64(c - 0x30)
            i += 1
        }
        return v == UInt64(uid)
    }

    /// A home that can hold the user's private directories.
    public static func usable(_ home: String) -> String? {
        let utf8 = home.utf8
        var ascii = true, last: UInt8 = 0
        for c in utf8 {
            if c == 0 { return nil }
            if c >= 0x80 { ascii = false }
            last = c
        }
        guard ascii else {
            // Character rules (a combining mark after `/` makes another character): the
            // String operations, off the common path.
            guard home.hasPrefix("/"), home != "/" else { return nil }
            return home.hasSuffix("/") ? String(home.dropLast()) : home
        }
        guard utf8.first == 0x2F, utf8.count > 1 else { return nil }
        guard last == 0x2F else { return home }
        var bytes = Array(utf8)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }
}
