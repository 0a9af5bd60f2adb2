import FoundationEssentials

/// A successful token endpoint response (RFC 6749 §5.1; OIDC Core §3.1.3.3; Keycloak adds
/// `refresh_expires_in`).
public struct TokenResponse: Sendable, Equatable, Decodable {
    public var accessToken: Secret
    public var tokenType: String
    public var expiresIn: Seconds?
    public var refreshToken: Secret?
    public var refreshExpiresIn: Seconds?
    public var idToken: Secret?
    public var scope: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case refreshExpiresIn = "refresh_expires_in"
        case idToken = "id_token"
        case scope
    }

    /// The tokens given as text become ``Secret``s here.
    public init(accessToken: String, tokenType: String, expiresIn: Seconds? = nil, refreshToken: String? = nil,
                refreshExpiresIn: Seconds? = nil, idToken: String? = nil, scope: String? = nil) {
        self.accessToken = Secret(.accessToken, accessToken)
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken.map { Secret(.refreshToken, $0) }
        self.refreshExpiresIn = refreshExpiresIn
        self.idToken = idToken.map { Secret(.idToken, $0) }
        self.scope = scope
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = Secret(.accessToken, try c.decode(String.self, forKey: .accessToken))
        tokenType = try c.decode(String.self, forKey: .tokenType)
        expiresIn = try c.decodeSeconds(.expiresIn)
        refreshToken = try c.decodeIfPresent(String.self, forKey: .refreshToken).map { Secret(.refreshToken, $0) }
        refreshExpiresIn = try c.decodeSeconds(.refreshExpiresIn)
        idToken = try c.decodeIfPresent(String.self, forKey: .idToken).map { Secret(.idToken, $0) }
        scope = try c.decodeIfPresent(String.self, forKey: .scope)
    }
}
