import KCAuthCore

/// `kcauth login --client-credentials` as a use case (issue 11 items 9–10): the client signs in
/// as itself (`ClientLogin`), and the session is written like a person's — to the profile's
/// store, with its settings (where the credential comes from, never the credential).
public struct ClientSignIn: Sendable {
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

    public func run(notify: @escaping @Sendable (SignIn.Event) -> Void) throws -> Output {
        guard let issuer = profile.issuer?.value, let clientID = profile.clientID?.value else {
            throw KCAuthError(.usage, "no issuer or client id for profile '\(profile.name)'")
        }
        let kind = profile.storage.value
        let signIn = SignIn(context: context, profile: profile)
        let store = signIn.storeMovingFrom(previous: signIn.previousStore(kind), kind: kind, notify: notify)
        // The scope is sent only when someone chose one: the default (`openid …`) is a person's.
        let scope = profile.scope.source == .default ? "" : profile.scope.value
        var remember = ProfileSettings(issuer: issuer, clientID: clientID, scope: profile.scope.source == .default ? nil : scope,
                                       port: nil, caFile: profile.caFile?.value, storage: kind == .file || kind == .encrypted ? kind : nil, flow: nil)
        profile.rememberLoginSettings(in: &remember)
        remember.grant = ProfileSettings.clientCredentialsGrant
        let writer = SessionWriter(store: store, storage: kind, cache: context.tokenCache(for: kind),
                                   settings: kind == .memory ? nil : context.settings, remember: kind == .memory ? nil : remember)
        let a = context.adapters
        let state = try ClientLogin(http: context.http(for: profile), clock: a.clock, random: a.random, store: store,
                                    credentials: a.credentials, writer: writer)
            .run(ClientLogin.Input(profile: profile.name, issuer: issuer, clientID: clientID, scope: scope,
                                   clientAuth: profile.clientAuth.value))
        return Output(state: state, storage: kind, authentication: profile.clientAuth.value.summary)
    }
}

extension KCAuthContext {
    public func clientSignIn(_ profile: ResolvedProfile) -> ClientSignIn { ClientSignIn(context: self, profile: profile) }
}
