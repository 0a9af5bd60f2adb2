/// What `token` and `refresh` hand out.
public struct IssuedToken: Sendable, Equatable {
    public var accessToken: Secret
    public var tokenType: String
    public var expiresAt: Instant?
    public var scope: String
    public var issuer: String
    public var clientID: String
    public var idToken: Secret?
    public var idTokenExpiresAt: Instant?
    /// Something the person should know, for stderr (never part of the token output).
    public var notice: Notice?

    /// Facts for the presenter to phrase (the core does not know the CLI's flag names).
    public enum Notice: Sendable, Equatable {
        /// The provider's tokens live shorter than the requested minimum validity, so every
        /// call refreshes.
        case shorterThanMinimumValidity(requested: Double)
    }

    public init(_ c: CachedToken) {
        accessToken = c.accessToken
        tokenType = c.tokenType
        expiresAt = c.expiresAt
        scope = c.scope
        issuer = c.issuer
        clientID = c.clientID
    }

    public init(_ s: AuthState) {
        accessToken = s.accessToken
        tokenType = s.tokenType
        expiresAt = s.expiresAt
        scope = s.scope
        issuer = s.issuer
        clientID = s.clientID
        idToken = s.idToken
        idTokenExpiresAt = s.idTokenExpiresAt ?? s.idToken.flatMap(IDTokenClaims.unverified)?.exp
    }
}
