/// How the files kcauth keeps for one stored session in the uid-bound shared directory
/// (``ContractPaths/sharedDirectory(uid:home:)``) are named: its session mark, its refresh lock
/// and its sign-in lock.
///
/// A stored session is its store, profile, issuer and client id. The same profile name in
/// another configuration (a project or a test suite with its own `XDG_CONFIG_HOME` and
/// provider) is another session, and must neither wait for this one's sign-in nor share its
/// mark. So every name is `<profile>.<16 hex digits>` and a suffix: the profile for people,
/// then FNV-1a (64 bits) of the store, the issuer and the client id, a NUL between them — a
/// name, not a secret (a collision only makes two sessions share a lock).
public enum SessionFileName {
    /// The session mark (``SessionMark``).
    public static let mark = ".session"
    /// The lock that serialises the session's refreshes and its logout.
    public static let refreshLock = ".refresh.lock"
    /// The lock of the one sign-in in flight for the session.
    public static let signInLock = ".signin.lock"

    /// `<profile>.<16 lower-case hex digits>`.
    public static func stem(profile: String, storage: String, issuer: String, clientID: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ s: String) { for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 } }
        mix(storage)
        h = h &* 0x100_0000_01b3   // the NUL between the parts (h ^ 0 == h)
        mix(issuer)
        h = h &* 0x100_0000_01b3
        mix(clientID)
        var bytes = Array(profile.utf8)
        bytes.append(UInt8(ascii: "."))
        ASCIIText.appendHex16(h, to: &bytes)   // by hand, not interpolation (docs/performance.md §4)
        return String(decoding: bytes, as: UTF8.self)
    }
}
