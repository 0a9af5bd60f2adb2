/// Where a profile's session is kept. The keyring is the default, and kcauth never falls back from
/// it silently; an encrypted file unlocked once per boot where no keyring runs; a plaintext file
/// only ever by explicit choice; memory keeps nothing beyond the one command (CI jobs).
public enum StorageKind: String, Sendable, CaseIterable {
    case keyring
    case encrypted
    case file
    case memory

    /// The kinds a profile may remember (`storage = …` in the configuration file). Memory is a
    /// one-shot choice of `login`: remembering it would make every later command "not logged in".
    public static let persistent: [StorageKind] = [.keyring, .encrypted, .file]

    /// The store's name in the runtime cache's records and session marks (the contract's
    /// ``CachePolicy``, which the front reads without this type): the setting's own word.
    public var recordName: String { rawValue }

    /// Parses a user-given value; `source` names where it came from in the error, in the
    /// caller's words ("$KCAUTH_STORAGE", "PATH: profile [x]", an option).
    public init(parsing raw: String, source: String, allowed: [StorageKind] = StorageKind.allCases) throws {
        guard let kind = StorageKind(rawValue: raw), allowed.contains(kind) else {
            let choices = allowed.map(\.rawValue).joined(separator: ", ")
            throw KCAuthError(.usage, "\(source): '\(Sanitize.oneLine(raw))' is not a storage kind: use one of \(choices)")
        }
        self = kind
    }
}
