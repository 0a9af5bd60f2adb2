
/// Ends a session at the provider without a browser: Keycloak's back-channel logout, then
/// token revocation (RFC 7009). Never throws: every outcome is a `LogoutStep`, because the local
/// session is deleted whatever the provider says.
struct ServerLogout: Sendable {
    let http: OAuthHTTP
    /// A confidential client authenticates these requests as at the token endpoint (RFC 7009
    /// §2.1; Keycloak's logout endpoint likewise); nil: a public client's `client_id`.
    var authenticator: ClientAuthenticator? = nil

    /// The end-session request goes first: it ends the user's whole session (SSO included). The
    /// other order would fail on Keycloak: revoking the refresh token detaches the client from
    /// the session, after which the end-session request is refused and the SSO session stays.
    /// Revocation then covers offline tokens and providers without the back-channel POST.
    func run(_ state: AuthState) -> (endSession: LogoutStep, revocation: LogoutStep) {
        let (endSession, reached) = self.endSession(state)
        // An unreachable provider is not asked twice: a second connect timeout helps nobody.
        guard reached else { return (endSession, state.endpoints.revocation == nil ? .notOffered : .notAttempted) }
        return (endSession, revoke(state).step)
    }

    /// Keycloak: `POST end_session_endpoint` with `client_id` and `refresh_token` ends the
    /// session and answers 204 (shared notes, keycloak-26 §c). Not part of OpenID Connect
    /// RP-Initiated Logout, so other providers may refuse it.
    func endSession(_ state: AuthState) -> (step: LogoutStep, reached: Bool) {
        guard let url = state.endpoints.endSession, let refreshToken = state.refreshToken else { return (.notOffered, true) }
        return step(url, [FormField("client_id", state.clientID), FormField("refresh_token", refreshToken)], tokenEndpoint: state.endpoints.token)
    }

    /// RFC 7009 §2.1: the refresh token (which on most providers takes its access tokens with
    /// it), else the access token; a public client identifies itself with `client_id` (§2.1, RFC
    /// 6749 §2.3). §2.2: 200 also for a token the provider does not know.
    func revoke(_ state: AuthState) -> (step: LogoutStep, reached: Bool) {
        guard let url = state.endpoints.revocation else { return (.notOffered, true) }
        let (token, hint) = state.refreshToken.map { ($0, "refresh_token") } ?? (state.accessToken, "access_token")
        return step(url, [FormField("token", token), FormField("token_type_hint", hint), FormField("client_id", state.clientID)],
                    tokenEndpoint: state.endpoints.token)
    }

    /// `reached` is false when no answer came at all (connect, TLS, timeout).
    private func step(_ url: String, _ fields: [FormField], tokenEndpoint: String) -> (step: LogoutStep, reached: Bool) {
        let response: HTTPResponse
        do {
            // A signed assertion is addressed to the token endpoint, as for the device endpoint.
            let authentication = try authenticator?.parameters(audience: tokenEndpoint) ?? ClientAuthenticationParameters()
            // With a proof for a DPoP session (RFC 9449 §5: the refresh token is bound to the key).
            response = try http.sendProving(method: .post, url: url, accessToken: nil) { proof in
                HTTPRequest(method: .post, url: WireText(url),
                            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
                                + authentication.headers + proof,
                            form: authentication.merged(into: fields))
            }
        } catch {
            return (.failed(KCAuthError.wrapping(error)), false)
        }
        return (Self.judge(response, url: url), true)
    }

    static func judge(_ response: HTTPResponse, url: String) -> LogoutStep {
        switch response.status {
        case 200..<300:
            return .ended
        case 400..<500:
            let oauth = OAuthHTTP.oauthError(response)
            // Keycloak: invalid_grant "Session not active", "Invalid refresh token", "Token is not
            // active"; the test provider: invalid_grant for a revoked family. All mean "gone".
            if oauth.map({ OAuthErrorCode($0.error) }) == .invalidGrant { return .alreadyGone }
            return .unsupported(oauth?.summary ?? "HTTP \(response.status)")
        default:
            // 5xx, including RFC 7009 §2.2.1's 503: the provider did not do it.
            return .failed(KCAuthError(.network, "\(url) answered HTTP \(response.status)"))
        }
    }
}
