import KCAuthContract

/// The runtime cache's copy of a profile's access token (never the refresh token), bound to the
/// stored session it came from: it is served only while the profile still resolves to the same
/// store, issuer and client (`CacheBinding`), so a login that changed any of them, or a store
/// switched by `KCAUTH_STORAGE`, can never be answered with another session's token.
public struct CachedToken: Sendable, Equatable, Codable {
    public var accessToken: Secret
    public var tokenType: String
    public var expiresAt: Instant?
    public var scope: String
    public var issuer: String
    public var clientID: String
    /// The storage kind of the session (`keyring`, `file`).
    public var storage: String
    /// `AuthState.sessionID` of the session the token belongs to.
    public var sessionID: String?
    /// Who is signed in, for `kcauth prompt` (an identity's display name; never a token).
    public var user: String?
    /// How the session renews without a person, and until when (``CacheRecord/renewal``).
    public var renewal: SessionRenewal?
    public var renewalExpiresAt: Instant?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresAt = "expires_at"
        case scope, issuer, storage
        case clientID = "client_id"
        case sessionID = "session_id"
        case user, renewal
        case renewalExpiresAt = "renewal_expires_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = Secret(.accessToken, try c.decode(String.self, forKey: .accessToken))
        tokenType = try c.decode(String.self, forKey: .tokenType)
        expiresAt = try c.decodeIfPresent(Instant.self, forKey: .expiresAt)
        scope = try c.decode(String.self, forKey: .scope)
        issuer = try c.decode(String.self, forKey: .issuer)
        clientID = try c.decode(String.self, forKey: .clientID)
        storage = try c.decode(String.self, forKey: .storage)
        sessionID = try c.decodeIfPresent(String.self, forKey: .sessionID)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(accessToken.reveal(), forKey: .accessToken)
        try c.encode(tokenType, forKey: .tokenType)
        try c.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try c.encode(scope, forKey: .scope)
        try c.encode(issuer, forKey: .issuer)
        try c.encode(clientID, forKey: .clientID)
        try c.encode(storage, forKey: .storage)
        try c.encodeIfPresent(sessionID, forKey: .sessionID)
    }

    /// The cache file's record (the contract's schema, shared with the front): the cache file
    /// is the access token's wire.
    public var record: CacheRecord {
        CacheRecord(accessToken: accessToken.reveal(), tokenType: tokenType, expiresAt: expiresAt?.epochSeconds, scope: scope, issuer: issuer,
                    clientID: clientID, storage: storage, sessionID: sessionID, user: user, renewal: renewal,
                    renewalExpiresAt: renewalExpiresAt?.epochSeconds)
    }

    public init(_ record: CacheRecord) {
        accessToken = Secret(.accessToken, record.accessToken)
        tokenType = record.tokenType
        expiresAt = record.expiresAt.flatMap { Instant(epochSeconds: $0) }
        scope = record.scope
        issuer = record.issuer
        clientID = record.clientID
        storage = record.storage
        sessionID = record.sessionID
        user = record.user
        renewal = record.renewal
        renewalExpiresAt = record.renewalExpiresAt.flatMap { Instant(epochSeconds: $0) }
    }

    public init(_ state: AuthState, storage: StorageKind) {
        accessToken = state.accessToken
        tokenType = state.tokenType
        expiresAt = state.expiresAt
        scope = state.scope
        issuer = state.issuer
        clientID = state.clientID
        self.storage = storage.recordName
        sessionID = state.sessionID
        user = (state.idToken.flatMap(IdentityClaims.init(unverifiedToken:))?.filling(from: state.userinfo)
            ?? state.serviceAccountClaims)?.displayName
        renewal = state.isClientCredentials ? .clientCredentials : state.refreshToken != nil ? .refreshToken : SessionRenewal.none
        renewalExpiresAt = state.refreshToken != nil ? state.refreshExpiresAt : nil
    }
}
