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

    public init(keyring: (any StoreKeyring)?) { self.keyring = keyring }

    public func run() throws -> Outcome {
        let keys = try EncryptedStore.keyring(keyring).lock()
        return keys > 0 ? .locked(keys: keys) : .wasNotUnlocked
    }
}
