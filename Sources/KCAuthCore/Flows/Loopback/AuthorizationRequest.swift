import KCAuthCrypto

/// One authorization request of the code flow with PKCE (RFC 6749 §4.1.1, RFC 7636 §4,
/// OpenID Connect Core §3.1.2.1), with the secrets the client keeps to check the response.
public struct AuthorizationRequest: Sendable, Equatable {
    /// RFC 7636 §4.1: 32 random bytes → 43 base64url characters.
    public let codeVerifier: Secret
    /// RFC 6749 §10.12: binds the response to this request (CSRF).
    public let state: Secret
    /// OIDC Core §3.1.2.1: binds the ID token to this request (replay).
    public let nonce: Secret
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
        codeVerifier = Secret(.codeVerifier, Base64URL.encode(try random.bytes(32)))
        state = Secret(.state, Base64URL.encode(try random.bytes(16)))
        nonce = Secret(.nonce, Base64URL.encode(try random.bytes(16)))
        self.redirectURI = redirectURI
        self.clientID = clientID
        self.scope = scope
    }

    /// RFC 7636 §4.2: the challenge is public (it is in the browser's URL); the verifier is not.
    public var codeChallenge: String { PKCE.challenge(forVerifier: codeVerifier.reveal()) }

    /// The request's parameters: in the browser's URL, or pushed (RFC 9126 §2.1).
    public var fields: [FormField] {
        [
            FormField("response_type", "code"),
            FormField("client_id", clientID),
            FormField("redirect_uri", redirectURI),
            FormField("scope", scope),
            FormField("state", state),
            FormField("nonce", nonce),
            FormField("code_challenge", codeChallenge),
            FormField("code_challenge_method", "S256"),
        ] + (dpopJKT.map { [FormField("dpop_jkt", $0)] } ?? []) + parameters.fields.map { FormField($0.0, $0.1) }
    }

    /// The URL to open in the browser. Keeps any query the endpoint already has.
    public func url(authorizationEndpoint: String) -> WireText {
        Self.url(authorizationEndpoint, fields.encoded)
    }

    /// After a push (RFC 9126 §4): the browser gets only `client_id` and `request_uri`.
    public func url(authorizationEndpoint: String, requestURI: String) -> WireText {
        Self.url(authorizationEndpoint, [FormField("client_id", clientID), FormField("request_uri", requestURI)].encoded)
    }

    private static func url(_ endpoint: String, _ query: WireText) -> WireText {
        WireText(endpoint + (endpoint.contains("?") ? "&" : "?")) + query
    }

    /// Form fields of the token request that redeems `code` (RFC 6749 §4.1.3, RFC 7636 §4.5).
    /// `redirect_uri` must be identical to the one in the authorization request, port included.
    public func tokenRequestFields(code: Secret) -> [FormField] {
        [FormField("grant_type", "authorization_code"), FormField("code", code), FormField("redirect_uri", redirectURI),
         FormField("client_id", clientID), FormField("code_verifier", codeVerifier)]
    }
}
