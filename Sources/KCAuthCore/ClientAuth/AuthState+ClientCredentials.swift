extension AuthState {
    public var isClientCredentials: Bool { grantType == ProfileSettings.clientCredentialsGrant }

    /// The session of a client-credentials token (RFC 6749 §4.4.3): the access token, its life
    /// and scope; no refresh token, no ID token, no person.
    public static func clientCredentials(issuer: String, clientID: String, tokens: TokenResponse, requestedScope: String,
                                         endpoints: ProviderEndpoints, now: Instant, sessionID: String?) -> AuthState {
        var state = AuthState(issuer: issuer, clientID: clientID, tokens: tokens, requestedScope: requestedScope,
                              endpoints: endpoints, now: now, sessionID: sessionID)
        state.refreshToken = nil
        state.refreshExpiresAt = nil
        state.idToken = nil
        state.grantType = ProfileSettings.clientCredentialsGrant
        return state
    }
}

extension AuthState {
    /// Who a client-credentials session is (Keycloak: `service-account-<client>`), from its own
    /// JWT access token, decoded unverified as the stored ID token is: the provider issued it to
    /// this client over TLS. Nil for a person's session or an opaque token.
    public var serviceAccountClaims: IdentityClaims? {
        isClientCredentials ? IdentityClaims(unverifiedToken: accessToken) : nil
    }
}
