import KCAuthContract

/// A short-lived copy of a profile's access token (never the refresh token) that lets
/// `kcauth token` answer without asking the keyring.
public protocol TokenCache: Sendable {
    /// The cached token, or nil when there is none or it cannot be trusted. Never throws: a
    /// cache that does not work is only slower.
    func read(profile: String) -> CachedToken?
    func write(_ token: CachedToken, profile: String)
    /// Drops this environment's copy (the session goes on: a rotation, a rejected token).
    func remove(profile: String)
    /// The session `session` (nil: whichever is current) of the profile's `binding` is over or
    /// replaced: no copy of it may be served again, in this environment or any other
    /// (KCAuthContract's SessionMark).
    func retire(profile: String, session: String?, binding: CacheBinding)
    /// What the cache knows of the profile's session without asking its store (`kcauth prompt`):
    /// the record, the session mark and the store's lock note, judged by KCAuthContract's
    /// ``SessionGlance``, as the front judges them.
    func glance(profile: String, binding: CachePolicy.Binding?, now: Instant) -> SessionGlance
    /// The store of `storage` was found locked (true), or read (false): kept for ``glance``.
    func noteStore(_ storage: StorageKind, locked: Bool)
}

extension TokenCache {
    public func retire(profile: String, session: String?, binding: CacheBinding) { remove(profile: profile) }

    /// A cache that keeps no records knows nothing: the store would have to say.
    public func glance(profile: String, binding: CachePolicy.Binding?, now: Instant) -> SessionGlance {
        SessionGlance.of(record: nil, binding: binding, mark: nil, storeLocked: { false }, now: now.epochSeconds)
    }

    public func noteStore(_ storage: StorageKind, locked: Bool) {}
}
