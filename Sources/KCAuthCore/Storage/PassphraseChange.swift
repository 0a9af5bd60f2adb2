/// What `kcauth passphrase` did to the encrypted store (``StoreKeyring/changePassphrase``).
public enum PassphraseChange: Sendable, Equatable {
    /// The same data key, wrapped under the new passphrase: the sessions were not rewritten,
    /// and an unlocked store stays unlocked.
    case rewrapped
    /// A new data key (and store id): `profiles`' sessions were re-sealed under it and the old
    /// key was revoked in the kernel keyring. `unlockedUntil`: the store was unlocked, and the
    /// new key is in the kernel keyring until then; nil: the store is locked.
    case newKey(profiles: [String], unlockedUntil: Instant?)
}
