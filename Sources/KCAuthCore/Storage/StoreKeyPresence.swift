/// Whether the encrypted store's key can be unlocked for other processes (``StoreKeyring``),
/// read without asking for anything and without touching the key itself.
public enum StoreKeyPresence: Sendable, Equatable {
    /// No store yet: its key file does not exist.
    case absent(keyFile: String)
    /// There is a store, but no kernel keyring here (why): the passphrase is given to each command.
    case noKernelKeyring(String)
    /// There is a store and a kernel keyring.
    case present
}
