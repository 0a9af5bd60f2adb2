import KCAuthCore

/// The real ``HostInspection``: libsecret's probe (``KeyringChecks``), the files and programs
/// (``HostChecks``), and the encrypted store's headers (``EncryptedStoreChecks``).
public struct SystemHostInspection: HostInspection {
    private let environment: [String: String]
    private let encrypted: @Sendable () -> (any SecretStore)?

    /// `encrypted`: the encrypted store as the other commands build it (nil: not in this build).
    public init(environment: [String: String], encrypted: @escaping @Sendable () -> (any SecretStore)? = { nil }) {
        self.environment = environment
        self.encrypted = encrypted
    }

    public func keyring(skipped reason: String?) -> [DoctorCheck] {
        reason.map(KeyringChecks.skipped) ?? KeyringChecks(environment: environment).run()
    }

    public func fileStore(profile: String) -> DoctorCheck {
        HostChecks(environment: environment).fileStore(FileSecretStore(directory: Paths(environment: environment).stateDirectory),
                                                       profile: profile)
    }

    public func encryptedStore(profile: String) -> [DoctorCheck] {
        guard let store = encrypted()?.withoutUnlockPrompts() as? EncryptedSecretStore else { return [] }
        return EncryptedStoreChecks(store: store, profile: profile).run()
    }

    public func runtimeDirectory() -> DoctorCheck { HostChecks(environment: environment).runtimeDirectory() }

    public func browser() -> DoctorCheck { HostChecks(environment: environment).browser() }

    public func caFile(_ path: String) -> DoctorCheck { HostChecks(environment: environment).caFile(path) }
}
