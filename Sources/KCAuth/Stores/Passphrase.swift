import KCAuthCore

/// `passphrase`: the encrypted store's data key wrapped under a new passphrase (the sessions are
/// not rewritten and an unlocked store stays unlocked), or with `newKey` a new data key that
/// every session is re-sealed under, the old one revoked.
public struct Passphrase: Sendable {
    let keyring: (any StoreKeyring)?

    public init(keyring: (any StoreKeyring)?) { self.keyring = keyring }

    /// `newPassphraseFile`: where the new passphrase is read; nil: asked twice on the terminal.
    public func run(newPassphraseFile: String?, newKey: Bool = false) throws -> PassphraseChange {
        let keyring = try EncryptedStore.keyring(keyring)
        if case .absent(let keyFile) = try keyring.keyPresence() { throw EncryptedStore.absent(keyFile) }
        return try keyring.changePassphrase(newPassphraseFile: newPassphraseFile, newKey: newKey)
    }
}
