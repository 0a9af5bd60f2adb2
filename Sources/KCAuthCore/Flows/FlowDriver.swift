/// A person's sign-in, the mechanism under the `Login` use case (module `KCAuth`): discovery,
/// then the browser flow (authorization code + PKCE on a loopback redirect, RFC 8252) or the
/// device flow (RFC 8628), then one validated write of the session (`SessionWriter`).
public struct FlowDriver: Sendable {
    public struct Input: Sendable, Equatable {
        public var profile: String
        public var issuer: String
        public var clientID: String
        public var scope: String
        /// Browser flow: the loopback port (0 = any free port).
        public var port: UInt16
        /// Browser flow: seconds to wait for the redirect. The device flow waits for as long as
        /// its code lives (`expires_in`).
        public var timeout: Double
        /// Browser flow: start a browser (false: only show the URL).
        public var openBrowser: Bool
        public var flow: LoginFlow
        /// Browser flow: when the launcher fails, switch to the device flow (if the provider has one).
        public var fallBackToDevice: Bool
        /// Browser flow: the optional authorization request parameters (OpenID Connect Core
        /// §3.1.2.1).
        public var authorization = AuthorizationParameters()
        /// How the client authenticates at the token endpoint (public: `.none`).
        public var clientAuth: ClientAuthenticationSetting = .none
        /// Browser flow: the profile's browser command (nil: `$BROWSER`, WSL's launchers, `xdg-open`).
        public var browserCommand: BrowserCommand?
        /// Whether the session is bound to a key of kcauth's (RFC 9449).
        public var dpop: DPoPMode = .no
        /// Browser flow: whether the authorization request is pushed (RFC 9126).
        public var par: PARMode = .auto

        public init(profile: String, issuer: String, clientID: String, scope: String, port: UInt16, timeout: Double,
                    openBrowser: Bool, flow: LoginFlow = .browser, fallBackToDevice: Bool = false,
                    browserCommand: BrowserCommand? = nil) {
            self.profile = profile
            self.issuer = issuer
            self.clientID = clientID
            self.scope = scope
            self.port = port
            self.timeout = timeout
            self.openBrowser = openBrowser
            self.flow = flow
            self.fallBackToDevice = fallBackToDevice
            self.browserCommand = browserCommand
        }
    }

    public struct Output: Sendable {
        public var state: AuthState
        public var claims: IDTokenClaims
        /// Something the person should know about the session (for stderr).
        public var notice: Notice? = nil

        public init(state: AuthState, claims: IDTokenClaims) {
            self.state = state
            self.claims = claims
        }
    }

    /// Facts about the session for the presenter to phrase.
    public enum Notice: Sendable, Equatable {
        /// `dpop = yes`, and the provider answered `Bearer`: it did not bind the tokens (RFC 9449
        /// §5 leaves that to it). The session works as a Bearer one.
        case providerDidNotBind
        /// `dpop = refresh-only`, and the provider bound the access token too: tools that know
        /// only Bearer cannot use it.
        case accessTokenBound
    }

    /// What the user must see to sign in on another device (RFC 8628 §3.3); the device code
    /// itself stays inside the flow.
    public struct DevicePrompt: Sendable, Equatable {
        public var userCode: String
        public var verificationURI: String
        public var verificationURIComplete: String?
        public var expiresIn: Double
        public var interval: Double

        public init(_ r: DeviceAuthorizationResponse) {
            userCode = r.userCode
            verificationURI = r.verificationURI
            verificationURIComplete = r.verificationURIComplete
            expiresIn = r.expiresIn
            interval = r.interval
        }

        /// §3.3.1: the link with the code in it, when the provider sent one.
        public var linkToOpen: String { verificationURIComplete ?? verificationURI }
    }

    /// Progress for the person at the terminal; the CLI renders these on stderr.
    public enum Event: Sendable {
        /// The store is usable and discovery worked: the flow begins (said once, and only when
        /// it gets this far, so an early failure stays one error line).
        case starting(LoginFlow)
        /// The URL to open by hand, shown to the person (its secrets revealed on the terminal
        /// only: the person must be able to open it).
        case authorizationURL(WireText)
        case browserFailed(KCAuthError)
        /// `fixedPortMayHelp`: the provider may refuse the random port without anyone seeing it
        /// (`ExactRedirectHint`).
        case waiting(redirectURI: String, timeout: Double, fixedPortMayHelp: Bool)
        /// Browser flow, about every quarter second while no paste prompt is shown: seconds left.
        case countdown(remaining: Double)
        /// Paste-back begins: the person may paste the address the browser could not load.
        case pastePrompt
        /// A pasted line was not this login's answer; the prompt stands.
        case pasteRejected(reason: String)
        /// The terminal's input ended: only the listener can still receive the answer.
        case pasteEnded
        /// The listener refused a connection from another user (or of unknown owner) and keeps
        /// waiting: said at once, since that browser's sign-in can never arrive.
        case connectionRefused(RefusedConnection)
        /// The automatic choice could not start a browser; the device flow takes over.
        case switchingToDevice(because: KCAuthError)
        case deviceCode(DevicePrompt)
        case devicePolling(DevicePoller.Progress)
        /// The provider answered: tokens are being checked.
        case received
    }

    let http: OAuthHTTP
    let clock: any TimeSource
    let random: any RandomSource
    let store: any SecretStore
    let opener: any URLOpener
    let receiver: any RedirectReceiver
    let sleeper: any Sleeper
    let writer: SessionWriter
    /// Where a confidential client's secret, key or assertion is fetched.
    var credentials: CredentialPorts? = nil
    let paste: (any LineInput)?

    /// `writer` nil: the session goes to `store` and nothing else (no cache, no settings).
    public init(http: OAuthHTTP, clock: any TimeSource, random: any RandomSource, store: any SecretStore,
                opener: any URLOpener, receiver: any RedirectReceiver, sleeper: any Sleeper, writer: SessionWriter? = nil,
                paste: (any LineInput)? = nil) {
        self.paste = paste
        self.writer = writer ?? SessionWriter(store: store, storage: .memory, cache: nil)
        self.http = http
        self.clock = clock
        self.random = random
        self.store = store
        self.opener = opener
        self.receiver = receiver
        self.sleeper = sleeper
    }

    public func run(_ input: Input, notify: (Event) -> Void) throws -> Output {
        // Fail before the user types a password if the result could not be kept.
        try store.checkAvailable()
        let metadata = try Discovery(http: http).fetch(issuer: input.issuer)
        let authenticator = try clientAuthenticator(input, metadata: metadata)
        let prover = try dpopProver(input, metadata: metadata)
        let http = self.http.proving(prover)
        let finisher = SessionFinisher(validator: IDTokenValidator(http: http, clock: clock), clock: clock,
                                       writer: writer.pinning(authenticator?.authentication), random: random)
        var device = DeviceFlow(http: http, random: random, sleeper: sleeper, finisher: finisher)
        device.authenticator = authenticator
        notify(.starting(input.flow))

        switch input.flow {
        case .device:
            return try device.run(input, metadata: metadata, notify: notify)
        case .browser:
            var browser = LoopbackFlow(http: http, random: random, opener: opener, receiver: receiver, finisher: finisher,
                                       sleeper: sleeper, paste: paste)
            browser.authenticator = authenticator
            do {
                // Without a device endpoint there is nothing to fall back to: show the URL and wait.
                return try browser.run(input, metadata: metadata,
                                       fallBackToDevice: input.fallBackToDevice && metadata.deviceAuthorizationEndpoint != nil,
                                       notify: notify)
            } catch let unavailable as LoopbackFlow.BrowserUnavailable {
                notify(.switchingToDevice(because: unavailable.error))
                return try device.run(input, metadata: metadata, notify: notify)
            }
        }
    }

    /// A new key for a DPoP login, of the first algorithm the provider accepts (RFC 9449 §5.1).
    private func dpopProver(_ input: Input, metadata: ProviderMetadata) throws -> DPoPProver? {
        guard input.dpop.usesKey else { return nil }
        guard let algorithm = DPoPKey.algorithm(for: metadata) else {
            let listed = (metadata.dpopSigningAlgValuesSupported ?? []).map { Sanitize.oneLine($0, limit: 20) }.joined(separator: ", ")
            throw KCAuthError(.provider, "the provider accepts DPoP proofs signed with \(listed) only; kcauth signs with ES256, PS256 or RS256",
                              remedy: .signInWithoutDPoP)
        }
        return DPoPProver(key: try DPoPKey.generate(algorithm), clock: clock, random: random)
    }

    /// A confidential client's authenticator, read once per login (the key, the secret; a
    /// platform assertion is re-read per request); nil for a public client.
    private func clientAuthenticator(_ input: Input, metadata: ProviderMetadata) throws -> ClientAuthenticator? {
        guard input.clientAuth.isConfidential else { return nil }
        guard let credentials else { throw KCAuthError(.internal, "no credential reader for a confidential client") }
        return ClientAuthenticator(clientID: input.clientID, authentication: try input.clientAuth.resolve(credentials, metadata: metadata),
                                   clock: clock, random: random)
    }

    /// Sets where a confidential client's credentials are fetched.
    public func reading(credentials ports: CredentialPorts) -> FlowDriver {
        var copy = self
        copy.credentials = ports
        return copy
    }
}
