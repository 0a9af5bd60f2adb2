import KCAuthCore

/// The encrypted store is its own keyring port: `unlock`, `lock` and `changePassphrase` above.
extension EncryptedSecretStore: StoreKeyring {}
