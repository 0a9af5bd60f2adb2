/// Serialises token refreshes of one profile across processes.
///
/// Keycloak (with rotation) and other providers answer the second of two concurrent refreshes
/// with the same refresh token by ending the whole client session, so two `kcauth token`
/// processes must never refresh at once (see README, "Concurrency").
public protocol ProfileLock: Sendable {
    /// Runs `body` while holding the profile's exclusive lock. Waits at most `timeout` seconds
    /// for the lock (then throws `timedOut`). The lock is released when `body` returns or throws,
    /// and by the kernel if the process dies.
    func withLock<T>(profile: String, timeout: Double, _ body: () throws -> T) throws -> T
}

/// A short-lived copy of a profile's access token (never the refresh token) that lets
/// `kcauth token` answer without asking the keyring.
public protocol TokenCache: Sendable {
    /// The cached token, or nil when there is none or it cannot be trusted. Never throws: a
    /// cache that does not work is only slower.
    func read(profile: String) -> CachedToken?
    func write(_ token: CachedToken, profile: String)
    func remove(profile: String)
}

public struct CachedToken: Sendable, Equatable, Codable {
    public var accessToken: String
    public var tokenType: String
    public var expiresAt: String?
    public var scope: String
    public var issuer: String
    public var clientID: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresAt = "expires_at"
        case scope, issuer
        case clientID = "client_id"
    }

    public init(_ state: AuthState) {
        accessToken = state.accessToken
        tokenType = state.tokenType
        expiresAt = state.expiresAt
        scope = state.scope
        issuer = state.issuer
        clientID = state.clientID
    }
}
