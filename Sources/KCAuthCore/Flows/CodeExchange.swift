/// Redeems an authorization code and validates what comes back (RFC 6749 §4.1.3–4.1.4,
/// OpenID Connect Core §3.1.3).
public struct CodeExchange: Sendable {
    let http: OAuthHTTP
    let validator: IDTokenValidator

    public init(http: OAuthHTTP, validator: IDTokenValidator) {
        self.http = http
        self.validator = validator
    }

    public func redeem(code: String, request: AuthorizationRequest, metadata: ProviderMetadata) throws -> (TokenResponse, IDTokenClaims) {
        let tokens: TokenResponse
        do {
            tokens = try http.postForm(TokenResponse.self, to: metadata.tokenEndpoint,
                                       fields: request.tokenRequestFields(code: code), what: "redeeming the authorization code")
        } catch var error as KCAuthError where error.code == .provider {
            error.hint = "run `kcauth login` again; if it keeps failing, check the client's settings at the provider"
            throw error
        }
        // RFC 6750: kcauth hands out bearer tokens; a DPoP- or MAC-bound token would be useless to
        // the scripts that call `kcauth token`.
        guard tokens.tokenType.lowercased() == "bearer" else {
            throw KCAuthError(.invalidResponse, "the provider issued a '\(Sanitize.oneLine(tokens.tokenType))' token; kcauth supports Bearer tokens only")
        }
        // Core §3.1.3.3: with the `openid` scope the response must carry an ID token.
        guard let idToken = tokens.idToken else {
            throw KCAuthError(.invalidResponse, "the token response has no ID token although the 'openid' scope was requested")
        }
        let claims = try validator.validate(idToken, .init(
            issuer: metadata.issuer, clientID: request.clientID, jwksURI: metadata.jwksURI,
            nonce: request.nonce, accessToken: tokens.accessToken))
        return (tokens, claims)
    }
}
