import KCAuthCrypto

/// The last step of every login flow, browser or device: check what the token endpoint issued,
/// validate the ID token, and store the session in one write.
///
/// One write at the end is what keeps a Ctrl-C (or any failure) from leaving half a session
/// behind: until this returns, the store holds whatever it held before the login.
public struct SessionFinisher: Sendable {
    let validator: IDTokenValidator
    let clock: any TimeSource
    let writer: SessionWriter
    let random: any RandomSource

    public init(validator: IDTokenValidator, clock: any TimeSource, writer: SessionWriter, random: any RandomSource) {
        self.validator = validator
        self.clock = clock
        self.writer = writer
        self.random = random
    }

    /// What the session is for; `nonce` is the authorization request's (nil for the device
    /// grant, which has none: OIDC Core §3.1.3.7 checks it only when one was sent).
    public struct Context: Sendable {
        public var profile: String
        public var clientID: String
        public var requestedScope: String
        public var nonce: Secret?
        public var metadata: ProviderMetadata
        /// `max_age` / essential `acr` asked for in the authorization request.
        public var requirements = AuthenticationRequirements()
        /// The DPoP key of this login and what the profile expects of it (RFC 9449).
        public var dpop: DPoPProver?
        public var dpopMode: DPoPMode = .no

        public init(profile: String, clientID: String, requestedScope: String, nonce: Secret?, metadata: ProviderMetadata) {
            self.profile = profile
            self.clientID = clientID
            self.requestedScope = requestedScope
            self.nonce = nonce
            self.metadata = metadata
        }
    }

    public func finish(_ tokens: TokenResponse, _ context: Context) throws -> FlowDriver.Output {
        let metadata = context.metadata
        let binding = try TokenTypeRule.check(tokens.tokenType, proved: context.dpop != nil)
        // Core §3.1.3.3: with the `openid` scope the response must carry an ID token.
        guard let idToken = tokens.idToken else {
            throw KCAuthError(.invalidResponse, "the token response has no ID token although the 'openid' scope was requested")
        }
        let claims = try validator.validate(idToken, .init(
            issuer: metadata.issuer, clientID: context.clientID, jwksURI: metadata.jwksURI,
            nonce: context.nonce, accessToken: tokens.accessToken))
        try context.requirements.check(claims, now: clock.instant)
        var state = AuthState(issuer: metadata.issuer, clientID: context.clientID, tokens: tokens,
                              requestedScope: context.requestedScope, endpoints: ProviderEndpoints(metadata), now: clock.instant,
                              idTokenExpiresAt: claims.exp, sessionID: Base64URL.encode(try random.bytes(12)))
        // The key goes with the session even when the provider did not bind the access token: a
        // provider that binds only the refresh token (`refresh-only`) still refuses a refresh
        // without a proof from it.
        state.dpop = context.dpop?.key.stored
        // Many providers put only `sub` in the ID token (OIDC Core §5.4 leaves the rest to
        // userinfo): fetch the identity once, so whoami and status can name the user offline.
        if claims.preferredUsername == nil, claims.name == nil, claims.email == nil, metadata.userinfoEndpoint != nil {
            state.userinfo = try? Userinfo(http: validator.http.proving(context.dpop)).fetch(state, expectedSubject: claims.sub, profile: context.profile)
        }
        try writer.write(state, profile: context.profile)
        var output = FlowDriver.Output(state: state, claims: claims)
        // RFC 9449 §5: the token type says whether the provider bound; say when it bound
        // differently from what the profile asked for.
        switch (context.dpopMode, binding) {
        case (.yes, .bearer): output.notice = .providerDidNotBind
        case (.refreshOnly, .dpop): output.notice = .accessTokenBound
        default: break
        }
        return output
    }
}
