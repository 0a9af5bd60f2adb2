import KCAuthCore

/// `passphrase`: the encrypted store's data key wrapped under a new passphrase; the sessions are
/// not rewritten and an unlocked store stays unlocked.
public struct Passphrase: Sendable {
    let keyring: (any StoreKeyring)?

    public init(keyring: (any StoreKeyring)?) { self.keyring = keyring }

    /// `newPassphraseFile`: where the new passphrase is read; nil: asked twice on the terminal.
    public func run(newPassphraseFile: String?) throws {
        let keyring = try EncryptedStore.keyring(keyring)
        if case .absent(let keyFile) = try keyring.keyPresence() { throw EncryptedStore.absent(keyFile) }
        try keyring.changePassphrase(newPassphraseFile: newPassphraseFile)
    }
}
