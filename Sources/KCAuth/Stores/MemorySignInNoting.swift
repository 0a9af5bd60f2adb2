import KCAuthCore

/// A profile's store, keeping the note of a memory-only sign-in (``MemorySignIns``): a write
/// to the memory store notes it, a write to any other store (or a delete) forgets it, and a read
/// that finds no session, or a store that cannot be read, for a noted profile says that the
/// session was kept in memory only and is gone (sign in again, exit 4) instead of "not logged
/// in" or the store's own failure (a missing keyring, exit 5). A session the store does hold
/// (one a memory login left alone) is read as always.
struct MemorySignInNoting: SecretStore, UnlockPrompting, StoreStateDescribing {
    let store: any SecretStore
    let kind: StorageKind
    let notes: any MemorySignIns
    /// For `logout`: a noted profile whose store holds nothing, or cannot be read, has no
    /// session to end (it was not signed in), rather than one that is gone.
    var signingOut = false

    var name: String { store.name }

    func checkAvailable() throws { try store.checkAvailable() }

    func read(profile: String) throws -> String? {
        guard kind != .memory else { return try store.read(profile: profile) }
        let secret: String?
        do {
            secret = try store.read(profile: profile)
        } catch let error as KCAuthError where error.code.isStorageFailure {
            guard notes.noted(profile: profile) else { throw error }
            if signingOut { return nil }
            throw Self.gone(profile)
        }
        if secret == nil, !signingOut, notes.noted(profile: profile) { throw Self.gone(profile) }
        return secret
    }

    func write(_ secret: String, for key: SecretKey) throws {
        try store.write(secret, for: key)
        if kind == .memory { notes.note(profile: key.profile) } else { notes.forget(profile: key.profile) }
    }

    @discardableResult
    func delete(profile: String) throws -> Bool {
        let deleted = try store.delete(profile: profile)
        if kind != .memory { notes.forget(profile: profile) }
        return deleted
    }

    func reportingOnly() -> any SecretStore {
        MemorySignInNoting(store: store.withoutUnlockPrompts(), kind: kind, notes: notes, signingOut: signingOut)
    }

    var encryptedState: EncryptedStoreState? { (store as? any StoreStateDescribing)?.encryptedState }

    static func gone(_ profile: String) -> KCAuthError {
        var error = KCAuthError(.loginRequired, "the session of profile '\(profile)' was kept in memory only by its last login, and is gone",
                                remedy: .signIn(profile: profile))
        error.problem = .keptInMemoryOnly(profile: profile)
        return error
    }
}
