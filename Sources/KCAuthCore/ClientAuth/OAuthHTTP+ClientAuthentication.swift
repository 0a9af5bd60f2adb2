extension OAuthHTTP {
    /// `postForm` for a token-endpoint-style request of a client that authenticates: the
    /// authenticator's fields are merged into `fields` and its headers added. `audience` is the
    /// assertion audience when it differs from `url` (the device authorization endpoint: the
    /// assertion is still addressed to the token endpoint).
    public func postForm<T: Decodable>(_ type: T.Type, to url: String, fields: [FormField],
                                       authenticator: ClientAuthenticator, audience: String? = nil, what: String,
                                       accepting success: Set<Int> = [200]) throws -> T {
        let authentication = try authenticator.parameters(audience: audience ?? url)
        return try Self.redactingCredentials(of: authentication) {
            try postForm(type, to: url, fields: authentication.merged(into: fields), headers: authentication.headers, what: what,
                         accepting: success)
        }
    }

    /// `postFormBody` (the refresh grant's undecoded answer) for a client that authenticates.
    public func postFormBody(to url: String, fields: [FormField], authenticator: ClientAuthenticator,
                             audience: String? = nil, what: String) throws -> [UInt8] {
        let authentication = try authenticator.parameters(audience: audience ?? url)
        return try Self.redactingCredentials(of: authentication) {
            try postFormBody(to: url, fields: authentication.merged(into: fields), headers: authentication.headers, what: what)
        }
    }

    /// `postFormBody` already redacts the form's secret fields from an echoed error; the secret
    /// sent in a Basic header is not a form field, so it is redacted here. A platform's
    /// assertion the provider refused is named by what it says of itself: a subject or audience
    /// that does not match the client's federated subject is the usual cause.
    private static func redactingCredentials<R>(of authentication: ClientAuthenticationParameters, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch var error as KCAuthError {
            let hidden = authentication.credentials
            error.message = redact(error.message, secrets: hidden)
            error.cause = error.cause.map { redact($0, secrets: hidden) }
            if let claims = authentication.platformAssertion, error.code == .provider,
               error.oauthError == .invalidClient || error.oauthError == .unauthorizedClient {
                error.message = redact(error.message + "; the platform's assertion sent had \(claims.summary)", secrets: hidden)
                error.remedy = .checkFederatedClient
                error.hint = nil
            }
            throw error
        }
    }
}
