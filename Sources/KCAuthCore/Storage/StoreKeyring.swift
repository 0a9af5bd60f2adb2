/// The encrypted store's data key and the kernel's user keyring (keyrings(7)): unlocking leaves the
/// key there for every process of the user, locking revokes it, and a new passphrase wraps the
/// same key again. The passphrase is asked for (or read from a file) by the adapter.
public protocol StoreKeyring: Sendable {
    /// Whether there is a store, and a kernel keyring to unlock it in.
    func keyPresence() throws -> StoreKeyPresence
    /// Unlocks for `seconds` (asking for the passphrase); when it locks again.
    func unlock(seconds: UInt32) throws -> Instant
    /// Revokes the key; whether it was unlocked (false too without a store or a kernel keyring).
    func lock() throws -> Bool
    /// Wraps the data key under a new passphrase (`newPassphraseFile`, else asked twice).
    func changePassphrase(newPassphraseFile: String?) throws
}
