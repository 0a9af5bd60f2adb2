import KCAuthCore
import KCAuthSystem

/// Which store a profile's session lives in (issue 5). The keyring is the default; a plaintext
/// file and memory are only ever chosen explicitly, and nothing here falls back from one store
/// to another: a broken keyring is reported (exit 5) with the file store named as a choice.
extension KCAuthContext {
    /// The store of `profile` for every command: `$KCAUTH_STORAGE`, else the profile's sticky
    /// `storage` setting, else the keyring. (`login` adds `--storage` on top: `loginStorage`.)
    public func store(for profile: String) throws -> any SecretStore {
        makeStore(try storageKind(for: profile, option: nil), profile: profile)
    }

    /// `option` (login's `--storage`), else `$KCAUTH_STORAGE`, else the profile's setting, else
    /// the keyring.
    public func storageKind(for profile: String, option: String?) throws -> StorageKind {
        try explicitStorage(option: option) ?? savedStorage(for: profile) ?? .keyring
    }

    /// The explicit choice, if any: `option` (login's `--storage`), else `$KCAUTH_STORAGE`.
    public func explicitStorage(option: String?) throws -> StorageKind? {
        if let option { return try StorageKind(parsing: option, source: "--storage") }
        if let env = environment["KCAUTH_STORAGE"], !env.isEmpty {
            return try StorageKind(parsing: env, source: "$KCAUTH_STORAGE")
        }
        return nil
    }

    /// The profile's `storage` setting. Read only when neither flag nor variable decided, so a
    /// missing config file costs one failed `open`.
    public func savedStorage(for profile: String) throws -> StorageKind? {
        let settings = self.settings
        return try ProfileSettings(settings.load(), profile: profile, path: settings.path).storage
    }

    public func makeStore(_ kind: StorageKind, profile: String, warn: @escaping @Sendable (String) -> Void = { _ in }) -> any SecretStore {
        switch kind {
        case .keyring: return LibSecretStore(environment: environment)
        case .file: return FileSecretStore(directory: FileSecretStore.defaultDirectory(environment: environment), warn: warn)
        case .memory: return MemorySecretStore()
        }
    }

    public var fileStore: FileSecretStore { FileSecretStore(directory: FileSecretStore.defaultDirectory(environment: environment)) }
}
