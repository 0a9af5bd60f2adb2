/// A `SecretStore` that may ask the person to unlock it (the Secret Service's password dialog).
///
/// Commands that report (`status`, `doctor`) must never pop up a dialog: they ask for
/// `reportingOnly()`, which answers "locked" instead of prompting.
public protocol UnlockPrompting: SecretStore {
    /// The same store, but one that fails with `storageLocked` instead of showing a prompt.
    func reportingOnly() -> any SecretStore
}

extension SecretStore {
    /// This store without unlock prompts (itself when it never prompts).
    public func withoutUnlockPrompts() -> any SecretStore {
        (self as? any UnlockPrompting)?.reportingOnly() ?? self
    }
}
