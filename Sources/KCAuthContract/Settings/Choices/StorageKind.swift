/// Where a profile's session is kept. The keyring is the default; an encrypted file unlocked
/// once per boot where no keyring runs; a plaintext file only ever by explicit choice; memory
/// keeps nothing beyond the one command (CI jobs). The words are the `storage` setting's
/// (``SettingsCatalogue/storage``): the option's choices, the file's and the environment's.
public enum StorageKind: String, Sendable, CaseIterable {
    case keyring
    case encrypted
    case file
    case memory

    /// The kinds a profile may remember (`storage = …` in the configuration file). Memory is a
    /// one-shot choice of `login`: remembering it would make every later command "not logged in".
    public static let persistent: [StorageKind] = [.keyring, .encrypted, .file]

    /// The store's name in the runtime cache's records and session marks (``CachePolicy``): the
    /// setting's own word.
    public var recordName: String { rawValue }
}
