import KCAuthCore
import KCAuthCrypto

/// `kcauth login --client-credentials`: a confidential client signs in as
/// itself (RFC 6749 §4.4), with no person and no browser. The session is written like a
/// person's (`SessionWriter`) — to the profile's store, with its settings (where the credential
/// comes from, never the credential) — without a refresh token; `TokenProvider` asks again when the
/// token expires.
public struct ClientLogin: Sendable {
    public struct Output: Sendable {
        public var state: AuthState
        public var storage: StorageKind
        /// How the client authenticated, for the person (never the credential).
        public var authentication: String
    }

    let context: KCAuthContext
    let profile: ResolvedProfile

    init(context: KCAuthContext, profile: ResolvedProfile) {
        self.context = context
        self.profile = profile
    }

    public func run(notify: @escaping @Sendable (Login.Event) -> Void) throws -> Output {
        let target = try profile.loginTarget()
        let clientAuth = profile.clientAuth.value
        guard clientAuth.isConfidential else {
            // The CLI names its option in the message, and `RemedyWords` says how to give the credential.
            var error = KCAuthError(.usage, "the client-credentials grant needs the client's secret or key", remedy: .giveClientCredential)
            error.problem = .noClientCredential
            throw error
        }
        let kind = profile.storage.value
        let store = StoreMove(context: context, profile: profile).store(kind, notify: notify)
        // The scope is sent only when someone chose one: the default (`openid …`) is a person's.
        let scope = profile.scope.source == .default ? "" : profile.scope.value
        var remember = ProfileSettings(issuer: target.issuer, clientID: target.clientID, scope: profile.scope.source == .default ? nil : scope,
                                       port: nil, caFile: profile.caFile?.value, storage: kind == .file || kind == .encrypted ? kind : nil, flow: nil)
        profile.rememberLoginSettings(in: &remember)
        remember.grant = ProfileSettings.clientCredentialsGrant
        let writer = SessionWriter(store: store, storage: kind, cache: context.tokenCache(for: kind),
                                   settings: kind == .memory ? nil : context.settings, remember: kind == .memory ? nil : remember)
        let a = context.adapters
        let http = context.http(for: profile)
        try store.checkAvailable()
        let metadata = try Discovery(http: http).fetch(issuer: target.issuer)
        let authentication = try clientAuth.resolve(context.credentialPorts, metadata: metadata)
        let authenticator = ClientAuthenticator(clientID: target.clientID, authentication: authentication, clock: a.clock, random: a.random)
        context.trace.emit(TraceEvent("flow.chosen", ("profile", .text(profile.name)), ("flow", .text("client_credentials")),
                                      ("why", .text("the profile's grant")), ("client_authentication", .text(authentication.description))))
        let tokens = try ClientCredentialsGrant(http: http)
            .requestToken(tokenEndpoint: metadata.tokenEndpoint, scope: scope.isEmpty ? nil : scope, authenticator: authenticator)
        let state = AuthState.clientCredentials(issuer: metadata.issuer, clientID: target.clientID, tokens: tokens,
                                                requestedScope: scope, endpoints: ProviderEndpoints(metadata),
                                                now: a.clock.instant, sessionID: Base64URL.encode(try a.random.bytes(12)))
        try writer.pinning(authentication).write(state, profile: profile.name)
        return Output(state: state, storage: kind, authentication: clientAuth.summary)
    }
}
