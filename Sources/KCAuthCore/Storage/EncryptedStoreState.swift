/// Whether the encrypted store is open, as `status` and `doctor` report it; read
/// without asking anyone anything. The front end phrases it.
public enum EncryptedStoreState: Sendable, Equatable {
    /// No key file yet: the first sign-in with the store creates it.
    case absent
    /// The data key is not in the kernel keyring: a command asks for the passphrase.
    case locked
    /// The data key is in the kernel keyring until then.
    case unlocked(until: Instant)
    /// There is no kernel keyring here (`why`): every command asks for the passphrase.
    case keyringUnavailable(String)
}
