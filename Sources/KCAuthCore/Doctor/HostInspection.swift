/// What `doctor` asks of the machine it runs on, check by check: the keyring, the session
/// stores, the runtime directory and the browser launcher. Nothing here changes anything or may
/// show a prompt. The real one is in KCAuthSystem; tests script the answers.
public protocol HostInspection: Sendable {
    /// The session bus, the Secret Service and its default collection, in that order; all three
    /// skipped with `reason` when the profile keeps its session elsewhere.
    func keyring(skipped reason: String?) -> [DoctorCheck]
    /// The file store of `profile`: a private directory, and a file kcauth would trust.
    func fileStore(profile: String) -> DoctorCheck
    /// The encrypted store of `profile`: kernel keyring, key file, session header, lock state.
    func encryptedStore(profile: String) -> [DoctorCheck]
    /// `$XDG_RUNTIME_DIR`: present, private and writable.
    func runtimeDirectory() -> DoctorCheck
    /// What `login` would start to open the browser.
    func browser() -> DoctorCheck
    /// The CA file the profile trusts for its provider (`ca_file`): there, readable, and holding
    /// PEM certificates.
    func caFile(_ path: String) -> DoctorCheck
}
