/// Where a profile's auth state (the JSON `AuthState`, which holds the refresh token) is kept.
///
/// Production: the Secret Service via libsecret. Every method must return within its deadline and
/// must tell "nothing stored" apart from "locked" and "no keyring" (a locked gnome-keyring answers
/// a lookup with "not found": the adapter probes before answering `nil`).
public protocol SecretStore: Sendable {
    /// A short name for messages and `status` output, e.g. "keyring".
    var name: String { get }

    /// Throws `storageUnavailable`, `storageLocked` or `storageNotResponding` when the store
    /// cannot be used; returns when reads and writes are expected to work.
    func checkAvailable() throws

    /// The stored secret of `profile`, or `nil` when there is none (and the store is usable).
    func read(profile: String) throws -> String?

    /// Creates or replaces the item of `key.profile`.
    func write(_ secret: String, for key: SecretKey) throws

    /// Removes the item of `profile`; returns whether one existed.
    @discardableResult
    func delete(profile: String) throws -> Bool
}
