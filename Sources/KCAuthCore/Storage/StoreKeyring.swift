/// The encrypted store's data key and the kernel's user keyring (keyrings(7)): unlocking leaves the
/// key there for every process of the user, locking revokes it, and a new passphrase wraps the
/// same key again, or a new one that every session is re-sealed under. The passphrase is asked
/// for (or read from a file) by the adapter.
public protocol StoreKeyring: Sendable {
    /// Whether there is a store, and a kernel keyring to unlock it in.
    func keyPresence() throws -> StoreKeyPresence
    /// Unlocks for `seconds` (asking for the passphrase); when it locks again.
    func unlock(seconds: UInt32) throws -> Instant
    /// Revokes every data key of the user's encrypted stores in the kernel keyring, whatever
    /// the stores' files say; how many were live (0 too without a kernel keyring).
    func lock() throws -> Int
    /// Wraps the data key under a new passphrase (`newPassphraseFile`, else asked twice); with
    /// `newKey`, a new data key instead, every session re-sealed under it, all or nothing.
    func changePassphrase(newPassphraseFile: String?, newKey: Bool) throws -> PassphraseChange
}
