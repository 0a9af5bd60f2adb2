/// Redeems an authorization code (RFC 6749 §4.1.3–4.1.4, RFC 7636 §4.5). What comes back is
/// checked and stored by `SessionFinisher`, as for every flow.
public struct CodeExchange: Sendable {
    let http: OAuthHTTP
    /// A confidential client authenticates the exchange (RFC 6749 §4.1.3); a public one sends
    /// its `client_id`.
    let authenticator: ClientAuthenticator?

    public init(http: OAuthHTTP, authenticator: ClientAuthenticator? = nil) {
        self.http = http
        self.authenticator = authenticator
    }

    public func redeem(code: Secret, request: AuthorizationRequest, metadata: ProviderMetadata) throws -> TokenResponse {
        do {
            let fields = request.tokenRequestFields(code: code)
            if let authenticator {
                return try http.postForm(TokenResponse.self, to: metadata.tokenEndpoint, fields: fields,
                                         authenticator: authenticator, what: "redeeming the authorization code")
            }
            return try http.postForm(TokenResponse.self, to: metadata.tokenEndpoint, fields: fields, what: "redeeming the authorization code")
        } catch var error as KCAuthError where error.code == .provider {
            (error.hint, error.remedy) = (nil, .signInAgainThenCheckClient)
            throw error
        }
    }
}
