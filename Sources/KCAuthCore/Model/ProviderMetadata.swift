import FoundationEssentials

/// The parts of an OpenID Provider's discovery document kcauth uses
/// (OpenID Connect Discovery 1.0 §3; Keycloak 26 publishes all of them, see README).
public struct ProviderMetadata: Sendable, Equatable, Codable {
    public var issuer: String
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var jwksURI: String
    public var userinfoEndpoint: String?
    public var endSessionEndpoint: String?
    public var revocationEndpoint: String?
    public var deviceAuthorizationEndpoint: String?
    public var codeChallengeMethodsSupported: [String]?
    public var idTokenSigningAlgValuesSupported: [String]?
    /// RFC 9207 §3: when true, every authorization response carries `iss` and kcauth requires it.
    public var authorizationResponseIssParameterSupported: Bool?
    /// RFC 8414 §2: how clients may authenticate at the token endpoint; absent means
    /// `client_secret_basic` only (see `ClientSecretMethod.preferred`).
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// RFC 8414 §2: the JWS algorithms accepted for `private_key_jwt` assertions.
    public var tokenEndpointAuthSigningAlgValuesSupported: [String]?
    /// RFC 9449 §5.1: the JWS algorithms the provider accepts in DPoP proofs; present when it
    /// does DPoP at all.
    public var dpopSigningAlgValuesSupported: [String]?
    /// RFC 9126 §5: where authorization requests are pushed.
    public var pushedAuthorizationRequestEndpoint: String?
    /// RFC 9126 §5: PAR is the only way in. Keycloak says false even for a client that
    /// requires it (hence `par = always`).
    public var requirePushedAuthorizationRequests: Bool?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case tokenEndpointAuthSigningAlgValuesSupported = "token_endpoint_auth_signing_alg_values_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
    }

    public init(issuer: String, authorizationEndpoint: String, tokenEndpoint: String, jwksURI: String) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.jwksURI = jwksURI
    }
}
