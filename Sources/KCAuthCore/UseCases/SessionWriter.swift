/// Writing a new session is one operation, in one place, in an order that can never leave a
/// stale runtime copy behind:
/// 1. the old session is retired first, in every environment's runtime cache (nothing can serve
///    the old token once the store changes);
/// 2. then the secret (the session itself, with its new `sessionID`);
/// 3. then the settings that produced it (not for a memory login, which keeps nothing).
///
/// If step 3 fails, the store already holds the new session and no cached copy exists: every
/// command reads the new session from the store, and the error is reported.
public struct SessionWriter: Sendable {
    let store: any SecretStore
    let cache: (any TokenCache)?
    let settings: (any SettingsStore)?
    let remember: ProfileSettings?
    /// The store the session goes to (the cache binding's `storage`).
    let storage: StorageKind

    /// `settings` and `remember` nil: leave the configuration file alone.
    public init(store: any SecretStore, storage: StorageKind, cache: (any TokenCache)?, settings: (any SettingsStore)? = nil,
                remember: ProfileSettings? = nil) {
        self.storage = storage
        self.store = store
        self.cache = cache
        self.settings = settings
        self.remember = remember
    }

    public func write(_ state: AuthState, profile: String) throws {
        cache?.retire(profile: profile, session: nil, binding: CacheBinding(storage: storage, issuer: state.issuer, clientID: state.clientID))
        try store.write(try state.encoded(), for: SecretKey(profile: profile, issuer: state.issuer, clientID: state.clientID))
        if let settings, let remember {
            var config = try settings.load()
            remember.apply(to: &config, profile: profile)
            try settings.save(config)
        }
    }
}
