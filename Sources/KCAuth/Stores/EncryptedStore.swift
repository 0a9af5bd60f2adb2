import KCAuthCore

/// What the encrypted store's use cases share.
enum EncryptedStore {
    /// The store's keyring port, or the error of a build without one.
    static func keyring(_ keyring: (any StoreKeyring)?) throws -> any StoreKeyring {
        guard let keyring else { throw KCAuthError(.internal, "the encrypted store is not available in this build") }
        return keyring
    }

    /// The error of a command that needs a store when there is none.
    static func absent(_ keyFile: String) -> KCAuthError {
        KCAuthError(.storageUnavailable, "there is no encrypted store yet (\(keyFile))", remedy: .createEncryptedStore)
    }
}
