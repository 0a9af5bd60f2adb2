import KCAuthCrypto

/// One authorization request of the code flow with PKCE (RFC 6749 §4.1.1, RFC 7636 §4,
/// OpenID Connect Core §3.1.2.1), with the secrets the client keeps to check the response.
public struct AuthorizationRequest: Sendable, Equatable {
    /// RFC 7636 §4.1: 32 random bytes → 43 base64url characters.
    public let codeVerifier: String
    /// RFC 6749 §10.12: binds the response to this request (CSRF).
    public let state: String
    /// OIDC Core §3.1.2.1: binds the ID token to this request (replay).
    public let nonce: String
    public let redirectURI: String
    public let clientID: String
    public let scope: String
    /// `idp_hint`, `prompt`, extra parameters and the like (`AuthorizationParameters`), after
    /// kcauth's own.
    public var parameters = AuthorizationParameters()
    /// RFC 9449 §10: the thumbprint of the DPoP key the code is to be bound to.
    public var dpopJKT: String?

    public init(clientID: String, scope: String, redirectURI: String, random: any RandomSource,
                parameters: AuthorizationParameters = AuthorizationParameters()) throws {
        self.parameters = parameters
        codeVerifier = Base64URL.encode(try random.bytes(32))
        state = Base64URL.encode(try random.bytes(16))
        nonce = Base64URL.encode(try random.bytes(16))
        self.redirectURI = redirectURI
        self.clientID = clientID
        self.scope = scope
    }

    public var codeChallenge: String { PKCE.challenge(forVerifier: codeVerifier) }

    /// The request's parameters: in the browser's URL, or pushed (RFC 9126 §2.1).
    public var fields: [(String, String)] {
        [
            ("response_type", "code"),
            ("client_id", clientID),
            ("redirect_uri", redirectURI),
            ("scope", scope),
            ("state", state),
            ("nonce", nonce),
            ("code_challenge", codeChallenge),
            ("code_challenge_method", "S256"),
        ] + (dpopJKT.map { [("dpop_jkt", $0)] } ?? []) + parameters.fields
    }

    /// The URL to open in the browser. Keeps any query the endpoint already has.
    public func url(authorizationEndpoint: String) -> String {
        Self.url(authorizationEndpoint, FormEncoding.encode(fields))
    }

    /// After a push (RFC 9126 §4): the browser gets only `client_id` and `request_uri`.
    public func url(authorizationEndpoint: String, requestURI: String) -> String {
        Self.url(authorizationEndpoint, FormEncoding.encode([("client_id", clientID), ("request_uri", requestURI)]))
    }

    private static func url(_ endpoint: String, _ query: String) -> String {
        endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }

    /// Form fields of the token request that redeems `code` (RFC 6749 §4.1.3, RFC 7636 §4.5).
    /// `redirect_uri` must be identical to the one in the authorization request, port included.
    public func tokenRequestFields(code: String) -> [(String, String)] {
        [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
         ("client_id", clientID), ("code_verifier", codeVerifier)]
    }
}
