import KCAuthCrypto

/// `kcauth login --client-credentials` (issue 11 item 9): a confidential client signs in as
/// itself (RFC 6749 §4.4), with no person and no browser. The session is stored like a
/// person's, without a refresh token; `kcauth token` asks again when the token expires.
public struct ClientLogin: Sendable {
    public struct Input: Sendable, Equatable {
        public var profile: String
        public var issuer: String
        public var clientID: String
        /// Sent when not empty (the client's default scopes otherwise). `openid` means nothing
        /// here: there is no ID token without a person.
        public var scope: String
        public var clientAuth: ClientAuthenticationSetting

        public init(profile: String, issuer: String, clientID: String, scope: String, clientAuth: ClientAuthenticationSetting) {
            self.profile = profile
            self.issuer = issuer
            self.clientID = clientID
            self.scope = scope
            self.clientAuth = clientAuth
        }
    }

    let http: OAuthHTTP
    let clock: any TimeSource
    let random: any RandomSource
    let store: any SecretStore
    let credentials: any CredentialReader
    let writer: SessionWriter

    public init(http: OAuthHTTP, clock: any TimeSource, random: any RandomSource, store: any SecretStore,
                credentials: any CredentialReader, writer: SessionWriter) {
        self.http = http
        self.clock = clock
        self.random = random
        self.store = store
        self.credentials = credentials
        self.writer = writer
    }

    public func run(_ input: Input) throws -> AuthState {
        guard input.clientAuth.isConfidential else {
            throw KCAuthError(.usage, "--client-credentials needs the client's secret or key",
                              hint: "export KCAUTH_CLIENT_SECRET, or pass --client-secret-file FILE, --client-key FILE or --client-assertion-file FILE")
        }
        try store.checkAvailable()
        let metadata = try Discovery(http: http).fetch(issuer: input.issuer)
        let authentication = try input.clientAuth.resolve(reader: credentials, metadata: metadata)
        let authenticator = ClientAuthenticator(clientID: input.clientID, authentication: authentication, clock: clock, random: random)
        let tokens = try ClientCredentialsGrant(http: http)
            .requestToken(tokenEndpoint: metadata.tokenEndpoint, scope: input.scope.isEmpty ? nil : input.scope, authenticator: authenticator)
        let state = AuthState.clientCredentials(issuer: metadata.issuer, clientID: input.clientID, tokens: tokens,
                                                requestedScope: input.scope, endpoints: ProviderEndpoints(metadata),
                                                now: clock.instant, sessionID: Base64URL.encode(try random.bytes(12)))
        try writer.pinning(authentication).write(state, profile: input.profile)
        return state
    }
}
