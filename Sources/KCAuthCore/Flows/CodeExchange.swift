/// Redeems an authorization code (RFC 6749 §4.1.3–4.1.4, RFC 7636 §4.5). What comes back is
/// checked and stored by `SessionFinisher`, as for every flow.
public struct CodeExchange: Sendable {
    let http: OAuthHTTP

    public init(http: OAuthHTTP) {
        self.http = http
    }

    public func redeem(code: String, request: AuthorizationRequest, metadata: ProviderMetadata) throws -> TokenResponse {
        do {
            return try http.postForm(TokenResponse.self, to: metadata.tokenEndpoint,
                                     fields: request.tokenRequestFields(code: code), what: "redeeming the authorization code")
        } catch var error as KCAuthError where error.code == .provider {
            error.hint = "run `kcauth login` again; if it keeps failing, check the client's settings at the provider"
            throw error
        }
    }
}
