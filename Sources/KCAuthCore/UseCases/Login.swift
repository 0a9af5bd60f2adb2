/// `kcauth login` with the browser: authorization code + PKCE on a loopback redirect (RFC 8252).
public struct Login: Sendable {
    public struct Input: Sendable, Equatable {
        public var profile: String
        public var issuer: String
        public var clientID: String
        public var scope: String
        public var port: UInt16
        /// Seconds to wait for the browser's redirect.
        public var timeout: Double
        public var openBrowser: Bool

        public init(profile: String, issuer: String, clientID: String, scope: String, port: UInt16, timeout: Double, openBrowser: Bool) {
            self.profile = profile
            self.issuer = issuer
            self.clientID = clientID
            self.scope = scope
            self.port = port
            self.timeout = timeout
            self.openBrowser = openBrowser
        }
    }

    public struct Output: Sendable {
        public var state: AuthState
        public var claims: IDTokenClaims
    }

    /// Progress for the person at the terminal; the CLI renders these on stderr.
    public enum Event: Sendable {
        case authorizationURL(String)
        case browserFailed(KCAuthError)
        case waiting(redirectURI: String, timeout: Double)
        case received
    }

    let http: OAuthHTTP
    let clock: any TimeSource
    let random: any RandomSource
    let store: any SecretStore
    let opener: any URLOpener
    let receiver: any RedirectReceiver

    public init(http: OAuthHTTP, clock: any TimeSource, random: any RandomSource, store: any SecretStore,
                opener: any URLOpener, receiver: any RedirectReceiver) {
        self.http = http
        self.clock = clock
        self.random = random
        self.store = store
        self.opener = opener
        self.receiver = receiver
    }

    public func run(_ input: Input, notify: (Event) -> Void) throws -> Output {
        // Fail before the user types a password if the result could not be kept.
        try store.checkAvailable()
        let metadata = try Discovery(http: http).fetch(issuer: input.issuer)

        let listener = try receiver.bind(port: input.port)
        defer { listener.close() }
        let request = try AuthorizationRequest(clientID: input.clientID, scope: input.scope,
                                               redirectURI: listener.redirectURI, random: random)
        let url = request.url(authorizationEndpoint: metadata.authorizationEndpoint)
        // RFC 8252 §7.3 wants the browser only once the listener is bound; the URL is always shown
        // so the user can open it by hand when no browser starts.
        notify(.authorizationURL(url))
        if input.openBrowser {
            do { try opener.open(url) } catch let error as KCAuthError { notify(.browserFailed(error)) }
        }
        notify(.waiting(redirectURI: listener.redirectURI, timeout: input.timeout))

        let judge = CallbackJudge(expectedState: request.state, issuer: metadata.issuer,
                                  issRequired: metadata.authorizationResponseIssParameterSupported == true)
        let exchange = CodeExchange(http: http, validator: IDTokenValidator(http: http, clock: clock))
        var result: Result<Output, KCAuthError>?
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
                    let output = try finish(code: code, request: request, metadata: metadata, input: input, exchange: exchange)
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

    private func finish(code: String, request: AuthorizationRequest, metadata: ProviderMetadata,
                        input: Input, exchange: CodeExchange) throws -> Output {
        let (tokens, claims) = try exchange.redeem(code: code, request: request, metadata: metadata)
        let state = AuthState(issuer: metadata.issuer, clientID: input.clientID, tokens: tokens,
                              requestedScope: input.scope, endpoints: ProviderEndpoints(metadata), now: clock.now())
        try store.write(try state.encoded(), for: SecretKey(profile: input.profile, issuer: metadata.issuer, clientID: input.clientID))
        return Output(state: state, claims: claims)
    }
}
