import KCAuthCore

/// The encrypted store is its own keyring port: `unlock`, `lock` and `changePassphrase`, and
/// whether there is a store and a kernel keyring.
extension EncryptedSecretStore: StoreKeyring {
    public func keyPresence() throws -> StoreKeyPresence {
        guard try loadKey(path: keyFile) != nil else { return .absent(keyFile: keyFile) }
        if case .unavailable(let why) = keyring.probe() { return .noKernelKeyring(why) }
        return .present
    }
}
