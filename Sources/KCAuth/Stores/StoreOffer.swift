import KCAuthCore

/// `login` where no Secret Service runs: rather than fail, a person at the
/// terminal may be offered the encrypted store. Only when nothing chose the keyring explicitly (a
/// flag, `KCAUTH_STORAGE`, or `storage =` in the profile), and never without a person.
public struct StoreOffer: Sendable {
    let context: KCAuthContext

    public init(context: KCAuthContext) { self.context = context }

    /// Why the keyring cannot be used, when the encrypted store is to be offered instead; nil:
    /// no offer (the keyring works, it was chosen explicitly, or nobody can answer).
    /// `personCanAnswer`: the front end can put a question to a person (its terminal). Any
    /// other failure of the keyring is thrown.
    public func reason(_ profile: ResolvedProfile, personCanAnswer: Bool) throws -> KCAuthError? {
        guard profile.storage.value == .keyring, profile.storage.source == .default,
              context.adapters.terminal.isInteractive, personCanAnswer else { return nil }
        do {
            try context.store(.keyring).withoutUnlockPrompts().checkAvailable()  // never a dialog just to ask
            return nil
        } catch let error as KCAuthError where error.code == .storageUnavailable {
            return error
        }
    }
}
