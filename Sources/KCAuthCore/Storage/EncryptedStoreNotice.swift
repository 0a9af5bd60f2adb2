/// What the encrypted store tells the person while it works, as facts the front end phrases
/// (it names its own commands: unlock, lock).
public enum EncryptedStoreNotice: Sendable, Equatable {
    /// The store was created and is unlocked for every process of the user until then;
    /// `passphraseFile`: its passphrase was read from that file (else typed at the terminal).
    case createdUnlocked(keyFile: String, until: Instant, passphraseFile: String?)
    /// The store was created; the kernel keyring cannot keep its key (`why`), so each command
    /// will ask (or read the passphrase file).
    case createdWithoutKernelKeyring(keyFile: String, why: String)
    /// The passphrase just asked for opened the store for this command only.
    case askedForThisCommandOnly
    /// No kernel keyring (`why`): the store cannot stay unlocked, so the passphrase is asked.
    case askingWithoutKernelKeyring(why: String)
}
