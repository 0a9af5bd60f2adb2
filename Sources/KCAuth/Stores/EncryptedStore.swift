import KCAuthCore

/// What the encrypted store's use cases share.
enum EncryptedStore {
    /// The store's keyring port, or the error of a build without one.
    static func keyring(_ keyring: (any StoreKeyring)?) throws -> any StoreKeyring {
        guard let keyring else { throw KCAuthError(.internal, "the encrypted store is not available in this build") }
        return keyring
    }
}
