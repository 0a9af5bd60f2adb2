/// The client credentials grant (RFC 6749 §4.4): a confidential client asks for a token for
/// itself, with no person involved — CI jobs and services.
public struct ClientCredentialsGrant: Sendable {
    let http: OAuthHTTP

    public init(http: OAuthHTTP) {
        self.http = http
    }

    /// Requests a token (§4.4.2) authenticated by `authenticator`; `scope` is sent when given.
    ///
    /// The answer (§4.4.3) is a `TokenResponse` with only the access token, its type, lifetime
    /// and scope: "A refresh token SHOULD NOT be included", and an ID token describes a person
    /// who is not there, so both are dropped rather than stored unvalidated. A new token is
    /// obtained the same way when this one expires.
    ///
    /// Throws `.provider` (with the OAuth error in `oauthError` and a hint for the usual mistakes),
    /// `.invalidResponse` for a non-Bearer token or an impossible lifetime (`Seconds` refuses
    /// those where `expires_in` is decoded), `.network` otherwise.
    public func requestToken(tokenEndpoint: String, scope: String?, authenticator: ClientAuthenticator) throws -> TokenResponse {
        var fields = [FormField("grant_type", "client_credentials")]
        if let scope, !scope.isEmpty { fields.append(FormField("scope", scope)) }

        let tokens: TokenResponse
        do {
            tokens = try http.postForm(TokenResponse.self, to: tokenEndpoint, fields: fields,
                                       authenticator: authenticator, what: "requesting a client-credentials token")
        } catch var error as KCAuthError where error.code == .provider {
            // A refused platform assertion already says what to check (its claims, the client's federated subject).
            if error.remedy == nil { error.hint = Self.hint(for: error.oauthError, authenticator: authenticator) }
            throw error
        }
        guard tokens.tokenType.lowercased() == "bearer" else {
            throw KCAuthError(.invalidResponse, "the provider issued a '\(Sanitize.oneLine(tokens.tokenType, limit: 40))' token; kcauth supports Bearer tokens only")
        }
        var issued = tokens
        (issued.refreshToken, issued.refreshExpiresIn, issued.idToken) = (nil, nil, nil)
        return issued
    }

    private static func hint(for error: OAuthErrorCode?, authenticator: ClientAuthenticator) -> String? {
        switch error {
        case .invalidClient?:
            switch authenticator.authentication {
            case .clientSecretBasic, .clientSecretPost:
                return "check the client secret and that client '\(authenticator.clientID)' is confidential at the provider"
            case .privateKeyJWT:
                return "check that the provider has the client's public key (and its kid) registered for '\(authenticator.clientID)'"
            case .clientAssertion:
                return "check that the provider trusts the platform that signed the assertion, and that the assertion has not expired"
            case .none:
                return "the client credentials grant needs a confidential client: give it a secret or a key"
            }
        case .unauthorizedClient?:
            return "allow the client credentials grant for '\(authenticator.clientID)' at the provider (Keycloak: \"Service accounts roles\")"
        case .invalidScope?:
            return "ask for a scope the client may have, or none"
        default:
            return nil
        }
    }
}
