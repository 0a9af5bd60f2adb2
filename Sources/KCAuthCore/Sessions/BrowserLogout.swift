import KCAuthCrypto

/// RP-initiated logout through the browser (OpenID Connect RP-Initiated Logout 1.0), for users
/// who also want the provider's sign-in in their browser ended: the back-channel logout ends
/// the session kcauth holds, but not necessarily the browser's SSO cookie.
struct BrowserLogout: Sendable {
    let random: any RandomSource
    let opener: any URLOpener
    let receiver: any RedirectReceiver

    func run(_ state: AuthState, port: UInt16, timeout: Double, profile: String, notify: (SessionEnd.Event) -> Void) -> LogoutStep {
        guard let endpoint = state.endpoints.endSession else { return .notOffered }
        do {
            let listener = try receiver.bind(port: port)
            defer { listener.close() }
            // §2: `state` comes back on the post-logout redirect; like the login's, it tells our
            // redirect from anything else that reaches the listener.
            let expected = Secret(.state, Base64URL.encode(try random.bytes(16)))
            let logoutURL = Self.url(endpoint: endpoint, state: state, redirectURI: listener.redirectURI, requestState: expected)
            // The logout URL carries the ID token (id_token_hint): the browser gets a one-shot
            // local URL that redirects to it, so the token is in no argv and no message.
            let url = listener.startURL(redirectingTo: logoutURL, secretPath: Secret(.startPath, "start/" + Base64URL.encode(try random.bytes(16))))
            notify(.openingBrowser)
            do { try opener.open(url) } catch let error as KCAuthError { notify(.browserFailed(error, url: url)) }
            notify(.waiting(redirectURI: listener.redirectURI, timeout: timeout))
            _ = try listener.receive(timeout: timeout) { request in
                request["state"] == expected.reveal()
                    ? .finish(.signedOut(profile: profile))
                    : .keepWaiting(.notThisSignOut)
            }
            return .ended
        } catch {
            return .failed(KCAuthError.wrapping(error))
        }
    }

    /// §2: `id_token_hint` names the session to end (and lets the provider skip its "do you want
    /// to log out?" question); `client_id` is sent too, which Keycloak requires with a
    /// `post_logout_redirect_uri` when no hint is given. The redirect URI must be registered at
    /// the provider (Keycloak: "Valid post logout redirect URIs"; loopback ports may vary).
    static func url(endpoint: String, state: AuthState, redirectURI: String, requestState: Secret) -> WireText {
        var fields = [FormField("client_id", state.clientID)]
        if let idToken = state.idToken { fields.append(FormField("id_token_hint", idToken)) }
        fields += [FormField("post_logout_redirect_uri", redirectURI), FormField("state", requestState)]
        return WireText(endpoint + (endpoint.contains("?") ? "&" : "?")) + fields.encoded
    }
}
