import KCAuthCrypto

/// The browser half of `kcauth login`: authorization code + PKCE, answered on a loopback
/// redirect (RFC 8252 §7.3).
struct LoopbackFlow: Sendable {
    /// The browser could not be started and the caller asked to hear about it instead of
    /// waiting for someone to open the URL by hand (the automatic choice falls back to the
    /// device flow).
    struct BrowserUnavailable: Error {
        var error: KCAuthError
    }

    let http: OAuthHTTP
    let random: any RandomSource
    let opener: any URLOpener
    let receiver: any RedirectReceiver
    let finisher: SessionFinisher
    var authenticator: ClientAuthenticator? = nil

    func run(_ input: Login.Input, metadata: ProviderMetadata, fallBackToDevice: Bool,
             notify: (Login.Event) -> Void) throws -> Login.Output {
        let listener = try receiver.bind(port: input.port)
        defer { listener.close() }
        let request = try AuthorizationRequest(clientID: input.clientID, scope: input.scope,
                                               redirectURI: listener.redirectURI, random: random, parameters: input.authorization)
        let url = request.url(authorizationEndpoint: metadata.authorizationEndpoint)
        // RFC 8252 §7.3 wants the browser only once the listener is bound.
        var launchError: KCAuthError?
        if input.openBrowser {
            // The browser starts at a one-shot local URL that redirects to `url` and binds the
            // browser to this login (`BrowserBinding`): `url` itself, with `state` and the PKCE
            // challenge, stays out of the browser's argv, which other local users can read.
            let binding = try BrowserBinding.forLogin(timeout: input.timeout, random: random)
            let start = listener.startURL(redirectingTo: url, secretPath: "start/" + Base64URL.encode(try random.bytes(16)),
                                          binding: binding)
            do { try opener.open(start) } catch {
                launchError = error as? KCAuthError ?? KCAuthError(.configuration, "cannot start a browser", cause: "\(error)")
            }
        }
        if let launchError, fallBackToDevice { throw BrowserUnavailable(error: launchError) }
        // The URL is always shown, so the user can open it by hand when no browser starts.
        notify(.authorizationURL(url))
        if let launchError { notify(.browserFailed(launchError)) }
        notify(.waiting(redirectURI: listener.redirectURI, timeout: input.timeout))

        let judge = CallbackJudge(expectedState: request.state, issuer: metadata.issuer,
                                  issRequired: metadata.authorizationResponseIssParameterSupported == true)
        let exchange = CodeExchange(http: http, authenticator: authenticator)
        let context = SessionFinisher.Context(profile: input.profile, clientID: input.clientID, requestedScope: input.scope,
                                              nonce: request.nonce, metadata: metadata).requiring(input.authorization.requirements)
        var result: Result<Login.Output, KCAuthError>?
        // The exchange runs while the browser waits for its page, so the page tells the truth
        // about the whole login, not just about the redirect.
        _ = try listener.receive(timeout: input.timeout) { callback in
            switch judge.judge(callback) {
            case .notOurs:
                return .keepWaiting(LandingPages.notThisLogin)
            case .failed(let error):
                result = .failure(error)
                return .finish(LandingPages.failure(error))
            case .code(let code):
                notify(.received)
                do {
                    let output = try finisher.finish(try exchange.redeem(code: code, request: request, metadata: metadata), context)
                    result = .success(output)
                    return .finish(LandingPages.success(user: output.claims.displayName, profile: input.profile))
                } catch {
                    let e = error as? KCAuthError ?? KCAuthError(.internal, "\(error)")
                    result = .failure(e)
                    return .finish(LandingPages.failure(e))
                }
            }
        }
        guard let result else { throw KCAuthError(.internal, "the loopback listener stopped without a result") }
        return try result.get()
    }
}
