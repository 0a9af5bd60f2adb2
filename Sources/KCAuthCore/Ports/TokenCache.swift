/// A short-lived copy of a profile's access token (never the refresh token) that lets
/// `kcauth token` answer without asking the keyring.
public protocol TokenCache: Sendable {
    /// The cached token, or nil when there is none or it cannot be trusted. Never throws: a
    /// cache that does not work is only slower.
    func read(profile: String) -> CachedToken?
    func write(_ token: CachedToken, profile: String)
    func remove(profile: String)
}
