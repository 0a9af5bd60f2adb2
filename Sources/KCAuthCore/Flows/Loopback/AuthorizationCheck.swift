/// Asks the provider about an authorization request before a browser opens, where it can say
/// "no" without a person. RFC 6749 §4.1.2.1: a request with an unknown client or a redirect URI
/// the client does not allow is never sent back to the client; the browser shows the provider's
/// error page and the listener would wait for nothing until its timeout. One request:
/// - where PAR is used, the push itself (RFC 9126 §2.1: the provider validates the client and the
///   redirect URI); its `request_uri` is what the browser opens;
/// - else a GET of the authorization URL with redirects not followed (the transport never follows
///   one), so nothing reaches the loopback listener. It claims nothing the browser needs: a
///   provider keeps an unfinished request in the session of the browser that made it, by a cookie
///   this request does not keep (Keycloak's authentication session; the test provider keeps
///   nothing before a login).
///
/// A 4xx answer is a refusal (the provider's words, and the settings they point at); anything
/// else — a login page, a redirect, a 5xx, a timeout, 408 or 429 — goes on to the browser: the
/// check never blocks a sign-in the provider would take.
struct AuthorizationCheck: Sendable {
    let http: OAuthHTTP
    let sleeper: any Sleeper

    /// Answers a browser may get past where this request did not (a moment's overload).
    static let passing: Set<Int> = [408, 425, 429]
    /// Answers that say the endpoint is not there (the browser would get the same), rather than
    /// that this request is refused: neither the client id nor the redirect URI is to blame.
    static let notThere: Set<Int> = [404, 405, 410]

    /// The pushed request where `pusher` is set, else nil; throws the provider's refusal.
    /// `fixedPort`: the listener's port was asked for (`--port`).
    func run(_ request: AuthorizationRequest, pusher: PushedAuthorization?, metadata: ProviderMetadata,
             fixedPort: Bool) throws -> PushedRequest? {
        func advice(_ suspect: RefusedAuthorization.Suspect) -> KCAuthError.Remedy {
            .checkClientOrRedirectURI(RefusedAuthorization(suspect, clientID: request.clientID, redirectURI: request.redirectURI,
                                                           fixedPort: fixedPort, issuer: metadata.issuer))
        }
        if let pusher {
            do {
                return try pusher.pushed(request, metadata: metadata, now: sleeper.monotonicNow())
            } catch var error as KCAuthError where error.code == .provider {
                // A confidential client's `invalid_client` is about its credentials: the
                // remedy the push gave stands.
                let suspect = RefusedAuthorization.suspect(words: error.cause, oauthError: error.oauthError)
                if suspect == .redirectURI || (suspect == .clientID && pusher.authenticator == nil) { error.remedy = advice(suspect) }
                throw error
            }
        }
        let response: HTTPResponse
        do {
            response = try http.transport.send(HTTPRequest(method: .get, url: request.url(authorizationEndpoint: metadata.authorizationEndpoint),
                                                           headers: [("Accept", "text/html,application/xhtml+xml")]))
        } catch {
            return nil  // not the provider's answer: the browser may fare better
        }
        guard (400..<500).contains(response.status), !Self.passing.contains(response.status) else { return nil }
        let words = ErrorPageText.words(in: response.body)
        if Self.notThere.contains(response.status) {
            var error = KCAuthError(.provider, "the provider's authorization endpoint answered HTTP \(response.status)" + (words.map { ": " + $0 } ?? ""),
                                    hint: "the discovery document names an authorization_endpoint that does not take sign-ins; "
                                        + "check the issuer URL (`kcauth doctor` shows the document)")
            error.httpStatus = response.status
            throw error
        }
        let oauth = OAuthHTTP.oauthError(response)
        var error = KCAuthError(.provider, "the provider refused the sign-in request" + (words.map { ": " + $0 } ?? "")
                                    + " (HTTP \(response.status))",
                                oauthError: oauth.map { OAuthErrorCode($0.error) },
                                remedy: advice(RefusedAuthorization.suspect(words: words, oauthError: oauth.map { OAuthErrorCode($0.error) })))
        error.httpStatus = response.status
        throw error
    }
}
