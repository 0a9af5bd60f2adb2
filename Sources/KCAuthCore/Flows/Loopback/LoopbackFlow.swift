import KCAuthCrypto

/// The browser half of `kcauth login`: authorization code + PKCE, answered on a loopback
/// redirect (RFC 8252 §7.3), or pasted at the terminal when the browser is on another machine.
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
    let sleeper: any Sleeper
    /// The terminal, when stdin is one: paste-back (nil: only the listener answers).
    let paste: (any LineInput)?
    var authenticator: ClientAuthenticator? = nil

    func run(_ input: FlowDriver.Input, metadata: ProviderMetadata, fallBackToDevice: Bool,
             notify: (FlowDriver.Event) -> Void) throws -> FlowDriver.Output {
        let listener = try receiver.bind(port: input.port)
        defer { listener.close() }
        var request = try AuthorizationRequest(clientID: input.clientID, scope: input.scope,
                                               redirectURI: listener.redirectURI, random: random, parameters: input.authorization)
        // RFC 9449 §10: the code is bound to the key, so a code stolen on its way back is useless
        // without it.
        request.dpopJKT = http.dpop?.key.thumbprint
        // RFC 9126: with a pushed request the browser's URL carries only `client_id` and
        // `request_uri`.
        let pusher = try PushedAuthorization.forLogin(mode: input.par, metadata: metadata, http: http, authenticator: authenticator)
        // The provider's "no" that needs no person (an unknown client, a redirect URI it does not
        // allow) ends the login now, not at the end of the browser's wait.
        let pushed = try AuthorizationCheck(http: http, sleeper: sleeper)
            .run(request, pusher: pusher, metadata: metadata, fixedPort: input.port != 0)
        // Whether the provider may still refuse the random port where no one sees it: it is not
        // known to take any loopback port, and no push has accepted this redirect URI.
        let fixedPortMayHelp = input.port == 0 && pushed == nil && !LoopbackPortRule.anyPortAccepted(issuer: metadata.issuer)
        let browser = try open(input, listener: listener, request: request, pusher: pusher, pushed: pushed, metadata: metadata,
                               fallBackToDevice: fallBackToDevice, fixedPortMayHelp: fixedPortMayHelp, notify: notify)
        let judge = CallbackJudge(expectedState: request.state, issuer: metadata.issuer,
                                  issRequired: metadata.authorizationResponseIssParameterSupported == true)
            .suggestingPAR(pusher == nil)
        let context = SessionFinisher.Context(profile: input.profile, clientID: input.clientID, requestedScope: input.scope,
                                              nonce: request.nonce, metadata: metadata).requiring(input.authorization.requirements)
            .proving(http.dpop, mode: input.dpop)
        return try wait(on: listener, judge: judge, browser: browser, input: input, fixedPortMayHelp: fixedPortMayHelp,
                        notify: notify) { code in
            redeem(code, request: request, metadata: metadata, context: context, notify: notify)
        }
    }

    /// Starts the browser — RFC 8252 §7.3 wants it only once the listener is bound — or not, and
    /// shows the URL and how the answer is expected; returns the wait's browser side. The URL
    /// is always shown, so the user can open it by hand when no browser starts.
    private func open(_ input: FlowDriver.Input, listener: any BoundRedirectListener, request: AuthorizationRequest,
                      pusher: PushedAuthorization?, pushed: PushedRequest?, metadata: ProviderMetadata, fallBackToDevice: Bool,
                      fixedPortMayHelp: Bool, notify: (FlowDriver.Event) -> Void) throws -> BrowserWait {
        let started = input.openBrowser
            ? try startBrowser(input, listener: listener, request: request, pusher: pusher, pushed: pushed, metadata: metadata)
            : (url: request.url(authorizationEndpoint: metadata.authorizationEndpoint), shown: nil, launched: nil, error: nil)
        if let launchError = started.error, fallBackToDevice { throw BrowserUnavailable(error: launchError) }
        // No browser here (paste-back, or a browser that did not start): the URL is opened by
        // hand, maybe on another machine that cannot reach the listener, so it is the pushed
        // request's URL itself, and the answer can only come back by hand (`PastedRedirect`).
        let byHand = !input.openBrowser || started.error != nil
        // The browser opened here: the short local URL it was given, a second one that works in
        // any browser on this machine (`startURLToShow`). By hand: the provider's own URL.
        let url = if byHand, let pusher { try Self.fresh(pushed, pusher: pusher, request: request, metadata: metadata, now: sleeper.monotonicNow()) }
            else if byHand { started.url } else { started.shown ?? started.url }
        http.trace.emit(TraceEvent("authorize.request", ("endpoint", .text(metadata.authorizationEndpoint)),
                                   ("redirect_uri", .text(listener.redirectURI)), ("pushed", .flag(pusher != nil)),
                                   ("browser", .text(input.openBrowser ? (started.error == nil ? "started" : "failed") : "not started")),
                                   ("parameters", .fields(request.fields.map { TraceField($0.name, .wire($0.value)) })),
                                   ("shown_url", .wire(url))))
        notify(.authorizationURL(url))
        if let launchError = started.error { notify(.browserFailed(launchError)) }
        notify(.waiting(redirectURI: listener.redirectURI, timeout: input.timeout, fixedPortMayHelp: fixedPortMayHelp))
        let shownLocally = !byHand && started.shown != nil
        let wait = BrowserWait(launched: started.launched, paste: paste, pasteNow: false, fallBackToDevice: fallBackToDevice,
                               now: sleeper.monotonicNow(), timeout: input.timeout,
                               urlByHand: shownLocally ? { try pusher?.browserURL(for: request, metadata: metadata) ?? started.url } : nil)
        if byHand { wait.startPasting(notify) }
        return wait
    }

    /// The code exchange (RFC 6749 §4.1.3, with the PKCE verifier) and the new session.
    private func redeem(_ code: Secret, request: AuthorizationRequest, metadata: ProviderMetadata,
                        context: SessionFinisher.Context, notify: (FlowDriver.Event) -> Void) -> Result<FlowDriver.Output, KCAuthError> {
        notify(.received)
        return Result {
            let tokens = try CodeExchange(http: http, authenticator: authenticator).redeem(code: code, request: request, metadata: metadata)
            return try finisher.finish(tokens, context)
        }.mapError(KCAuthError.wrapping)
    }

    /// Starts the browser at a one-shot local URL that redirects to the provider and binds the
    /// browser to this login (`BrowserBinding`): the provider's URL, with `state` and the PKCE
    /// challenge, stays out of the browser's argv, which other local users can read. Returns the
    /// URL to open by hand elsewhere, the local start URL to show (nil: the listener has none),
    /// the browser, and why it did not start.
    private func startBrowser(_ input: FlowDriver.Input, listener: any BoundRedirectListener, request: AuthorizationRequest,
                              pusher: PushedAuthorization?, pushed: PushedRequest?, metadata: ProviderMetadata) throws
        -> (url: WireText, shown: WireText?, launched: (any LaunchedBrowser)?, error: KCAuthError?) {
        var url = request.url(authorizationEndpoint: metadata.authorizationEndpoint)
        let binding = try BrowserBinding.forLogin(timeout: input.timeout, random: random)
        let secretPath = Secret(.startPath, "start/" + Base64URL.encode(try random.bytes(16)))
        let start: WireText
        if let pusher {
            // The browser that arrives at the start URL gets the request pushed before it
            // opened, while its `request_uri` lives (Keycloak: 60 s); a later one gets a new push
            // (a refused one ends the login with the provider's error).
            start = listener.startURL(secretPath: secretPath, binding: binding) { [sleeper] in
                try Self.fresh(pushed, pusher: pusher, request: request, metadata: metadata, now: sleeper.monotonicNow())
            }
            // The provider's URL does not exist yet: the one to open by hand is the start URL.
            url = start
        } else {
            start = listener.startURL(redirectingTo: url, secretPath: secretPath, binding: binding)
        }
        // A secret of its own, and another prefix: never the path in the browser's argv.
        let shown = listener.startURLToShow(secretPath: Secret(.startPath, "show/" + Base64URL.encode(try random.bytes(16))))
        do {
            return (url, shown, try opener.launch(start, command: input.browserCommand), nil)
        } catch {
            return (url, shown, nil, error as? KCAuthError ?? KCAuthError(.configuration, "cannot start a browser", cause: "\(error)"))
        }
    }

    /// The URL of `pushed` while it is fresh, else of a new push.
    private static func fresh(_ pushed: PushedRequest?, pusher: PushedAuthorization, request: AuthorizationRequest,
                              metadata: ProviderMetadata, now: Double) throws -> WireText {
        if let pushed, pushed.isFresh(now: now) { return pushed.browserURL }
        return try pusher.browserURL(for: request, metadata: metadata)
    }

    /// Runs the wait until it is finished: the listener's requests and the lines pasted at the
    /// terminal feed its state machine (`LoopbackWaiter`, over `LoopbackWait`). The exchange runs
    /// while the browser waits for its page, so the page tells the truth about the whole login,
    /// not just about the redirect.
    private func wait(on listener: any BoundRedirectListener, judge: CallbackJudge, browser: BrowserWait, input: FlowDriver.Input,
                      fixedPortMayHelp: Bool, notify: (FlowDriver.Event) -> Void,
                      redeem: (Secret) -> Result<FlowDriver.Output, KCAuthError>) throws -> FlowDriver.Output {
        let waiter = LoopbackWaiter(judge: judge, listener: listener, browser: browser, clock: sleeper, profile: input.profile,
                                    trace: http.trace)
        _ = try ExactRedirectHint.explainingTimeout(fixedPortMayHelp: fixedPortMayHelp, refused: { waiter.refused }) {
            try listener.receive(timeout: input.timeout, tickEvery: BrowserWait.tickSeconds,
                                 tick: { try waiter.tick(notify: notify, redeem: redeem) },
                                 judge: { waiter.judge($0, notify: notify, redeem: redeem) })
        }
        return try waiter.result()
    }
}
