/// Pushes an authorization request to the provider (RFC 9126 §2.1): the PKCE challenge, `state`,
/// `nonce`, `dpop_jkt` and the authorization parameters go to the provider directly, with the
/// client's authentication, and the browser is sent only `client_id` and `request_uri`.
public struct PushedAuthorization: Sendable {
    let http: OAuthHTTP
    /// A confidential client authenticates the push as it does at the token endpoint (§2); a
    /// public one sends its `client_id`.
    let authenticator: ClientAuthenticator?
    public let endpoint: String

    public init(http: OAuthHTTP, authenticator: ClientAuthenticator?, endpoint: String) {
        self.http = http
        self.authenticator = authenticator
        self.endpoint = endpoint
    }

    /// Whether the browser flow pushes, and where, for the profile's `par` and the provider's
    /// discovery document; nil: an ordinary authorization request.
    public static func endpoint(mode: PARMode, metadata: ProviderMetadata) throws -> String? {
        switch mode {
        case .never:
            return nil
        case .auto:
            return metadata.pushedAuthorizationRequestEndpoint
        case .always:
            if let endpoint = metadata.pushedAuthorizationRequestEndpoint { return endpoint }
            // Keycloak does not advertise it when discovery is trimmed, but its path is fixed.
            if metadata.issuer.contains("/realms/") { return metadata.issuer + "/protocol/openid-connect/ext/par/request" }
            throw KCAuthError(.configuration, "the provider lists no pushed_authorization_request_endpoint, and par is 'always'",
                              remedy: .signInWithPAR([.auto, .never]))
        }
    }

    /// The browser's URL after a successful push: `authorizationEndpoint` with `client_id` and
    /// `request_uri` only.
    public func browserURL(for request: AuthorizationRequest, metadata: ProviderMetadata) throws -> WireText {
        let pushed = try push(request, issuer: metadata.issuer)
        return request.url(authorizationEndpoint: metadata.authorizationEndpoint, requestURI: pushed.requestURI)
    }

    public func push(_ request: AuthorizationRequest, issuer: String) throws -> PushedAuthorizationResponse {
        let what = "pushing the authorization request"
        do {
            if let authenticator {
                // §2: the provider accepts its issuer as a client assertion's audience.
                return try http.postForm(PushedAuthorizationResponse.self, to: endpoint, fields: request.fields,
                                         authenticator: authenticator, audience: issuer, what: what, accepting: [200, 201])
            }
            return try http.postForm(PushedAuthorizationResponse.self, to: endpoint, fields: request.fields, what: what,
                                     accepting: [200, 201])
        } catch var error as KCAuthError where error.code == .provider {
            (error.hint, error.remedy) = (nil, .checkClientOrSkipPushedAuthorization)
            throw error
        }
    }
}
