/// What the encrypted store tells the person while it works, as facts the front end phrases
/// (it names its own commands: unlock, lock).
public enum EncryptedStoreNotice: Sendable, Equatable {
    /// The store was created and is unlocked for every process of the user until then.
    case createdUnlocked(keyFile: String, until: Instant)
    /// The store was created; without a kernel keyring (`why`) each command will ask.
    case createdWithoutKernelKeyring(keyFile: String, why: String)
    /// The store was created with the passphrase read from a file.
    case createdFromFile(keyFile: String, passphraseFile: String)
    /// The passphrase just asked for opened the store for this command only.
    case askedForThisCommandOnly
    /// No kernel keyring (`why`): the store cannot stay unlocked, so the passphrase is asked.
    case askingWithoutKernelKeyring(why: String)
}
