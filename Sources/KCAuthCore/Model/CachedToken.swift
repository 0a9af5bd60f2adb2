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
