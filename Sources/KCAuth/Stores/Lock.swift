import KCAuthCore

/// `lock`: revoke the encrypted store's data key in the kernel keyring.
public struct Lock: Sendable {
    public enum Outcome: Sendable, Equatable {
        case locked
        /// It was not unlocked (or there is no store, or no kernel keyring): nothing to revoke.
        case wasNotUnlocked
    }

    let keyring: (any StoreKeyring)?

    public init(keyring: (any StoreKeyring)?) { self.keyring = keyring }

    public func run() throws -> Outcome {
        try EncryptedStore.keyring(keyring).lock() ? .locked : .wasNotUnlocked
    }
}
