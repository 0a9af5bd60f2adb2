/// A store is about to wait for the person to unlock it in the keyring's own dialog (Secret Service
/// API, "Prompt"). The store only reports it; the CLI says it on stderr, because a password dialog
/// that pops up while a terminal command seems to hang needs one line of explanation.
public struct UnlockPromptNotice: Sendable, Equatable {
    /// The collection's label ("Login"), when the Secret Service gave one.
    public var keyring: String?
    /// How long the store waits for the dialog before giving up (exit 5).
    public var seconds: Double

    public init(keyring: String?, seconds: Double) {
        self.keyring = keyring
        self.seconds = seconds
    }
}
