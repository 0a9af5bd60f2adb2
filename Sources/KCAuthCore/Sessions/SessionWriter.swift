/// Every write of a stored session goes through here: a new session (`write`, login), new
/// tokens for the same session (`refreshed`, a refresh), a detail kept with it (`amended`, the
/// userinfo answer), and its end (`discard`, the provider said it is over).
///
/// Writing a new session is one operation, in one place, in an order that can never leave a
/// stale runtime copy behind:
/// 1. the old session is retired first, in every environment's runtime cache (nothing can serve
///    the old token once the store changes);
/// 2. then the secret (the session itself, with its new `sessionID`);
/// 3. then the settings that produced it (not for a memory login, which keeps nothing);
/// 4. then its runtime copy (none for a memory login: it has no cache).
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

    /// How long a writer waits for the profile's refresh lock held by another process: that
    /// process's HTTP deadline plus keyring time.
    public static let lockTimeout: Double = 75

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
        // 4. Its runtime copy, which also marks it the profile's current session: the next
        // `kcauth token` needs no store read, and `kcauth prompt` shows it signed in at once.
        cache?.write(CachedToken(state, storage: storage), profile: profile)
    }

    /// New tokens of the same session (a refresh, or the rotated refresh token kept before
    /// anything else can fail): this environment's runtime copy goes first (it holds the old
    /// access token), then the store. Other environments' copies stay: the session is the same.
    /// The caller holds the profile's refresh lock.
    public func refreshed(_ state: AuthState, profile: String) throws {
        cache?.remove(profile: profile)
        try store.write(try state.encoded(), for: SecretKey(profile: profile, issuer: state.issuer, clientID: state.clientID))
    }

    /// A detail kept with the session (the provider's userinfo answer): the store only, since no
    /// token changed. The caller holds the profile's refresh lock.
    public func amended(_ state: AuthState, profile: String) throws {
        try store.write(try state.encoded(), for: SecretKey(profile: profile, issuer: state.issuer, clientID: state.clientID))
    }

    /// The provider says the session is over: every environment's cached copy of it is
    /// retired, and the stored session deleted (settings stay). The caller holds the lock.
    public func discard(profile: String, session: String?, binding: CacheBinding) {
        cache?.retire(profile: profile, session: session, binding: binding)
        _ = try? store.delete(profile: profile)
    }
}
