#if canImport(Glibc)
import Glibc
#endif
import CKeyring
import KCAuthCore
import KCAuthCrypto

/// The kernel's per-user keyring (`@u`, keyrings(7)), where `kcauth unlock` leaves the encrypted
/// store's data key so that every process of the user (any terminal, cron, kubectl) reads the
/// store without asking again, until the key times out, `kcauth lock` revokes it, or the machine
/// reboots. The key lives in kernel memory only; it never touches the disk in clear.
///
/// The payload is the 32-byte key followed by its expiry (Unix seconds, 8 bytes big-endian):
/// the kernel keeps the timeout but does not hand it back through keyctl(2), and `status`
/// wants to say "unlocked until …".
public struct KernelKeyring: Sendable {
    public struct Entry: Sendable, Equatable {
        public var key: [UInt8]
        public var expires: Instant
    }

    /// What a probe found: usable, or not here (and why, in words for a person).
    public enum Availability: Sendable, Equatable {
        case available
        case unavailable(String)
    }

    public init() {}

    /// What every kcauth data key's description starts with, whichever store it opens.
    public static let dataKeyPrefix = "kcauth:data-key:"

    public static func description(storeID: String) -> String { dataKeyPrefix + storeID }

    /// Whether add_key/keyctl work here: a search for a key that does not exist answers
    /// ENOKEY when they do; a seccomp filter (Docker's and Podman's default profiles) answers
    /// EPERM or ENOSYS.
    public func probe() -> Availability {
        let serial = kc_key_search_user(KC_KEY_SPEC_USER_KEYRING, "kcauth:probe:absent")
        if serial >= 0 { return .available }
        let code = errno
        switch code {
        case ENOKEY, EKEYEXPIRED, EKEYREVOKED: return .available
        default: return .unavailable(Self.reason(code))
        }
    }

    /// Stores `key` under `description` in the user keyring for `seconds`, readable and
    /// searchable by this user only (possessor all; user view/read/search/write/setattr).
    public func store(_ key: [UInt8], description: String, seconds: UInt32, expires: Instant) throws {
        var payload = key
        let stamp = UInt64(max(0, expires.epochSeconds.rounded(.down)))
        for shift in stride(from: 56, through: 0, by: -8) { payload.append(UInt8(truncatingIfNeeded: stamp >> UInt64(shift))) }
        defer { Scrypt.wipe(&payload) }
        let serial = payload.withUnsafeBytes { kc_key_add_user(description, $0.baseAddress, $0.count, KC_KEY_SPEC_USER_KEYRING) }
        guard serial >= 0 else { throw failure("add_key") }
        guard kc_key_setperm(serial, KC_KEY_PERM_PRIVATE) == 0 else {
            let error = failure("keyctl(KEYCTL_SETPERM)")
            _ = kc_key_revoke(serial)
            throw error
        }
        guard kc_key_set_timeout(serial, seconds) == 0 else {
            let error = failure("keyctl(KEYCTL_SET_TIMEOUT)")
            _ = kc_key_revoke(serial)
            throw error
        }
    }

    /// The key stored under `description`, or nil when there is none (never unlocked, expired,
    /// revoked).
    public func find(description: String) throws -> Entry? {
        let serial = kc_key_search_user(KC_KEY_SPEC_USER_KEYRING, description)
        guard serial >= 0 else {
            if [ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(errno) { return nil }
            throw failure("keyctl(KEYCTL_SEARCH)")
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBytes { kc_key_read(serial, $0.baseAddress, $0.count) }
        guard length >= 0 else {
            if [ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(errno) { return nil }
            throw failure("keyctl(KEYCTL_READ)")
        }
        guard length == 40 else {
            throw KCAuthError(.storageUnavailable, "the kernel keyring holds a key '\(description)' kcauth did not write",
                              remedy: .relockStore)
        }
        let stamp = buffer[32..<40].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let entry = Entry(key: Array(buffer[..<32]), expires: Instant(clock: Double(stamp)))
        Scrypt.wipe(&buffer)
        return entry
    }

    /// Revokes the key under `description` (readers fail at once) and unlinks it; returns
    /// whether there was one.
    @discardableResult
    public func remove(description: String) throws -> Bool {
        let serial = kc_key_search_user(KC_KEY_SPEC_USER_KEYRING, description)
        guard serial >= 0 else {
            if [ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(errno) { return false }
            throw failure("keyctl(KEYCTL_SEARCH)")
        }
        guard kc_key_revoke(serial) == 0 else { throw failure("keyctl(KEYCTL_REVOKE)") }
        _ = kc_key_unlink(serial, KC_KEY_SPEC_USER_KEYRING)
        return true
    }

    /// Revokes every `user` key of this user in the user keyring whose description starts with
    /// `prefix`, and unlinks it: `kcauth lock` ends every data key kcauth left there, of every
    /// store, whatever state the stores' files are in (a key file moved away still has its key
    /// here until it times out). Returns how many were live.
    public func revokeAll(prefix: String) throws -> Int {
        var revoked = 0
        for serial in try linkedKeys() {
            guard let key = describe(serial), key.type == "user", key.uid == geteuid(), key.description.hasPrefix(prefix) else { continue }
            if kc_key_revoke(serial) == 0 {
                revoked += 1
            } else if ![ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(errno) {
                throw failure("keyctl(KEYCTL_REVOKE)")
            }
            _ = kc_key_unlink(serial, KC_KEY_SPEC_USER_KEYRING)
        }
        return revoked
    }

    /// The serials of the keys linked in the user keyring (KEYCTL_READ on a keyring answers
    /// them as an array of 32-bit serials, keyctl(2)).
    private func linkedKeys() throws -> [Int32] {
        var serials = [Int32](repeating: 0, count: 64)
        while true {
            let length = serials.withUnsafeMutableBytes { kc_key_read(KC_KEY_SPEC_USER_KEYRING, $0.baseAddress, $0.count) }
            guard length >= 0 else {
                if [ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(errno) { return [] }
                throw failure("keyctl(KEYCTL_READ)")
            }
            let count = length / MemoryLayout<Int32>.size
            if count <= serials.count { return Array(serials.prefix(count)) }
            serials = [Int32](repeating: 0, count: count + 16)  // keys were added meanwhile: read again
        }
    }

    /// A key's type, owner and description (KEYCTL_DESCRIBE: "type;uid;gid;perm;description");
    /// nil for a key that is gone, expired or not viewable.
    private func describe(_ serial: Int32) -> (type: String, uid: uid_t, description: String)? {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { kc_key_describe(serial, $0.baseAddress, $0.count) }
        guard length > 0, length <= buffer.count else { return nil }
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let fields = text.split(separator: ";", maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5, let uid = UInt32(fields[1]) else { return nil }
        return (String(fields[0]), uid, String(fields[4]))
    }

    private func failure(_ call: String) -> KCAuthError {
        let code = errno
        return KCAuthError(.storageUnavailable, "the kernel keyring cannot be used: \(call) failed: \(Self.reason(code))")
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case EPERM, EACCES, ENOSYS:
            return "the kernel refused the keyring system calls (\(String(cString: strerror(code)))); "
                + "a container's seccomp profile blocks add_key and keyctl by default"
        case EDQUOT:
            return "the user's key quota is full (\(String(cString: strerror(code))))"
        default:
            return String(cString: strerror(code))
        }
    }
}
