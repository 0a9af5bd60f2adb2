/// What `token` and `refresh` hand out.
public struct IssuedToken: Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    public var expiresAt: Double?
    public var scope: String
    public var issuer: String
    public var clientID: String
    public var idToken: String?
    public var idTokenExpiresAt: Double?
    /// Something the person should know, for stderr (never part of the token output).
    public var notice: String?

    init(_ c: CachedToken) {
        accessToken = c.accessToken
        tokenType = c.tokenType
        expiresAt = c.expiresAt.flatMap(RFC3339.parse)
        scope = c.scope
        issuer = c.issuer
        clientID = c.clientID
    }

    init(_ s: AuthState) {
        self.init(CachedToken(s))
        idToken = s.idToken
        idTokenExpiresAt = s.idTokenExpiresAtEpoch ?? s.idToken.flatMap(IDTokenClaims.unverified)?.exp
    }
}
