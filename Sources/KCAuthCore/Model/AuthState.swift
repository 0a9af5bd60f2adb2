import FoundationEssentials

/// Everything kcauth keeps about one signed-in profile. It is the secret stored in the keyring,
/// as JSON. Times are `Instant`s, stored as RFC 3339 UTC text so the document stays readable and
/// means the same thing whenever it is read.
public struct AuthState: Sendable, Equatable, Codable {
    public static let currentVersion = 1

    public var version: Int
    public var issuer: String
    public var clientID: String
    public var accessToken: Secret
    public var tokenType: String
    /// When the access token expires; nil when the provider did not say.
    public var expiresAt: Instant?
    public var refreshToken: Secret?
    /// When the refresh token expires; nil when unknown (never derived from the token itself:
    /// Keycloak's offline tokens may carry no `exp`).
    public var refreshExpiresAt: Instant?
    public var idToken: Secret?
    /// The ID token's `exp`, read when it was validated (for handing out the ID token).
    public var idTokenExpiresAt: Instant?
    /// Granted scope (RFC 6749 §5.1: the requested scope when the response omits it).
    public var scope: String
    public var endpoints: ProviderEndpoints
    /// A random id given to the session at login and kept through refreshes: what a runtime
    /// cache entry is bound to, and how a process tells "another process replaced the session"
    /// from "another process refreshed it". Nil in sessions stored by kcauth 0.1.
    public var sessionID: String?
    /// The userinfo claims fetched at login (OIDC Core §5.3), for providers whose ID token
    /// carries only `sub`; nil when not fetched.
    public var userinfo: JSONValue?
    public var obtainedAt: Instant
    /// `client_credentials` for a session of the client itself (RFC 6749 §4.4): no refresh
    /// token, a new token is requested the same way when this one expires. Nil: a person's.
    public var grantType: String?
    /// The DPoP key the session's tokens are bound to (RFC 9449), for the proofs every later
    /// refresh, userinfo and revocation must carry; nil for a Bearer session.
    public var dpop: StoredDPoPKey?

    enum CodingKeys: String, CodingKey {
        case version, issuer
        case clientID = "client_id"
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresAt = "expires_at"
        case refreshToken = "refresh_token"
        case refreshExpiresAt = "refresh_expires_at"
        case idToken = "id_token"
        case idTokenExpiresAt = "id_token_expires_at"
        case scope, endpoints
        case obtainedAt = "obtained_at"
        case sessionID = "session_id"
        case userinfo
        case grantType = "grant_type"
        case dpop
    }

    public init(issuer: String, clientID: String, tokens: TokenResponse, requestedScope: String,
                endpoints: ProviderEndpoints, now: Instant, idTokenExpiresAt: Instant? = nil, sessionID: String? = nil) {
        version = Self.currentVersion
        self.issuer = issuer
        self.clientID = clientID
        accessToken = tokens.accessToken
        tokenType = tokens.tokenType
        expiresAt = tokens.expiresIn.map(now.adding)
        refreshToken = tokens.refreshToken
        // Keycloak sends 0 for offline tokens without a maximum lifespan: that means "no limit
        // known", not "already expired".
        refreshExpiresAt = tokens.refreshExpiresIn.flatMap { $0.value > 0 ? now.adding($0) : nil }
        idToken = tokens.idToken
        self.idTokenExpiresAt = idTokenExpiresAt
        scope = tokens.scope ?? requestedScope
        self.endpoints = endpoints
        obtainedAt = now
        self.sessionID = sessionID
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        issuer = try c.decode(String.self, forKey: .issuer)
        clientID = try c.decode(String.self, forKey: .clientID)
        accessToken = Secret(.accessToken, try c.decode(String.self, forKey: .accessToken))
        tokenType = try c.decode(String.self, forKey: .tokenType)
        expiresAt = try c.decodeIfPresent(Instant.self, forKey: .expiresAt)
        refreshToken = try c.decodeIfPresent(String.self, forKey: .refreshToken).map { Secret(.refreshToken, $0) }
        refreshExpiresAt = try c.decodeIfPresent(Instant.self, forKey: .refreshExpiresAt)
        idToken = try c.decodeIfPresent(String.self, forKey: .idToken).map { Secret(.idToken, $0) }
        idTokenExpiresAt = try c.decodeIfPresent(Instant.self, forKey: .idTokenExpiresAt)
        scope = try c.decode(String.self, forKey: .scope)
        endpoints = try c.decode(ProviderEndpoints.self, forKey: .endpoints)
        obtainedAt = try c.decode(Instant.self, forKey: .obtainedAt)
        sessionID = try c.decodeIfPresent(String.self, forKey: .sessionID)
        userinfo = try c.decodeIfPresent(JSONValue.self, forKey: .userinfo)
        grantType = try c.decodeIfPresent(String.self, forKey: .grantType)
        dpop = try c.decodeIfPresent(StoredDPoPKey.self, forKey: .dpop)
    }

    /// The stored document: the one place a session's tokens are written out whole (the store
    /// is their wire).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(issuer, forKey: .issuer)
        try c.encode(clientID, forKey: .clientID)
        try c.encode(accessToken.reveal(), forKey: .accessToken)
        try c.encode(tokenType, forKey: .tokenType)
        try c.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try c.encodeIfPresent(refreshToken?.reveal(), forKey: .refreshToken)
        try c.encodeIfPresent(refreshExpiresAt, forKey: .refreshExpiresAt)
        try c.encodeIfPresent(idToken?.reveal(), forKey: .idToken)
        try c.encodeIfPresent(idTokenExpiresAt, forKey: .idTokenExpiresAt)
        try c.encode(scope, forKey: .scope)
        try c.encode(endpoints, forKey: .endpoints)
        try c.encode(obtainedAt, forKey: .obtainedAt)
        try c.encodeIfPresent(sessionID, forKey: .sessionID)
        try c.encodeIfPresent(userinfo, forKey: .userinfo)
        try c.encodeIfPresent(grantType, forKey: .grantType)
        try c.encodeIfPresent(dpop, forKey: .dpop)
    }

    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Decodes a stored state; a damaged or foreign item is reported, never silently dropped.
    public static func decode(_ text: String, profile: String) throws -> AuthState {
        do {
            let state = try JSONDecoder().decode(AuthState.self, from: Data(text.utf8))
            guard state.version == currentVersion else {
                throw KCAuthError(.loginRequired, "the stored state of profile '\(profile)' has version \(state.version), which this kcauth does not read",
                                  remedy: .signIn(profile: profile))
            }
            return state
        } catch let error as KCAuthError {
            throw error
        } catch {
            throw KCAuthError(.loginRequired, "the stored state of profile '\(profile)' is unreadable",
                              cause: "\(error)", remedy: .signIn(profile: profile))
        }
    }
}
