extension TokenRefresher {
    /// A client-credentials session has no refresh token: when its token expires, the client
    /// asks again with its own credentials (RFC 6749 §4.4.3 "A refresh token SHOULD NOT be
    /// included"). The caller (`TokenProvider`) holds the profile's lock, as for a refresh, so
    /// concurrent `kcauth token` calls request one token between them.
    func renewClientCredentials(_ state: AuthState, profile: String, scope: String?) throws -> AuthState {
        guard let authenticator = authenticator(for: state) else {
            throw KCAuthError(.loginRequired, "the token of profile '\(profile)' has expired, and the profile names no client credentials to renew it",
                              remedy: .signInWithClientCredentials(profile: profile))
        }
        let wanted = scope ?? state.scope
        let tokens = try ClientCredentialsGrant(http: http)
            .requestToken(tokenEndpoint: state.endpoints.token, scope: wanted.isEmpty ? nil : wanted, authenticator: authenticator)
        var next = AuthState.clientCredentials(issuer: state.issuer, clientID: state.clientID, tokens: tokens, requestedScope: wanted,
                                               endpoints: state.endpoints, now: clock.instant, sessionID: state.sessionID)
        next.userinfo = state.userinfo
        return next
    }
}
