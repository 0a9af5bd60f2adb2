import KCAuthCore

/// `lock`: revoke every data key of the user's encrypted stores in the kernel keyring.
public struct Lock: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// `keys` data keys were live and are revoked (more than one: stores in other state
        /// directories of the same user).
        case locked(keys: Int)
        /// Nothing was unlocked (or there is no kernel keyring): nothing to revoke.
        case wasNotUnlocked
    }

    let keyring: (any StoreKeyring)?
    /// Where `kcauth prompt` learns that the store is locked (``TokenCache/noteStore(_:locked:)``).
    let cache: (any TokenCache)?

    public init(keyring: (any StoreKeyring)?, cache: (any TokenCache)? = nil) {
        self.keyring = keyring
        self.cache = cache
    }

    public func run() throws -> Outcome {
        let keys = try EncryptedStore.keyring(keyring).lock()
        cache?.noteStore(.encrypted, locked: true)
        return keys > 0 ? .locked(keys: keys) : .wasNotUnlocked
    }
}
