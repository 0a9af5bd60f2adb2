import KCAuthCore

extension Login {
    /// Who is signed in, and until when.
    public struct Found: Sendable {
        public var profile: String
        public var state: AuthState
        public var user: String
        /// When the session ends as far as kcauth knows: the refresh token's expiry, else the
        /// access token's (a client-credentials session is renewed without an end); nil: unknown.
        public var until: Instant?
        public var health: SessionHealth
    }
}

/// "Already signed in": `kcauth login` for a profile whose stored session is
/// still usable and whose settings this login would not change has nothing to do (as `aws sso
/// login` users asked, aws/aws-cli#5972). `force` skips the check.
struct AlreadySignedIn {
    let context: KCAuthContext
    let profile: ResolvedProfile
    let options: Login.Options

    /// The "nothing to do" answer when the stored session will do: said (except to kubectl,
    /// which only wants the token), with the token when `wantsToken`; nil: sign in.
    func answer(notify: (Login.Event) -> Void) throws -> Login.Result? {
        guard let found = find() else { return nil }
        if !options.kubectl { notify(.alreadySignedIn(found)) }
        guard options.wantsToken else { return .alreadySignedIn(token: nil) }
        return .alreadySignedIn(token: try context.tokenProvider(profile).run(TokenProvider.Request()))
    }

    /// The stored session when it is usable and made with the settings this login would use;
    /// nil when a login has something to do. Never throws: a store that cannot be read means
    /// "sign in" (the login itself then reports the store).
    func find() -> Login.Found? {
        let oneOff = options.authorization
        // The flow this login would keep in the profile (a flow flag changes it).
        let rememberedFlow = Login.rememberedFlow(profile)
        // A memory login keeps nothing, and one-off parameters ask for a new sign-in.
        guard profile.storage.value != .memory, !oneOff.hasOneOffs, settingsUnchanged,
              rememberedFlow == profile.saved.flow else { return nil }
        guard let secret = try? context.store(for: profile).read(profile: profile.name),
              let state = try? AuthState.decode(secret, profile: profile.name),
              state.issuer == profile.issuer?.value, state.clientID == profile.clientID?.value,
              state.isClientCredentials == profile.usesClientCredentials,
              // `login --dpop` on a Bearer session (or the reverse) must sign in again: the key is
              // made at login and bound by the token endpoint (RFC 9449 §5).
              (state.dpop != nil) == profile.dpop.value.usesKey else { return nil }
        let health = SessionHealth.of(state, now: context.clock.instant)
        guard health.isUsable else { return nil }
        let user = state.idToken.flatMap(IdentityClaims.init(unverifiedToken:))?.filling(from: state.userinfo).displayName
            ?? IdentityClaims(unverifiedToken: state.accessToken)?.displayName ?? state.clientID
        let until = state.isClientCredentials ? state.expiresAt : (state.refreshToken != nil ? state.refreshExpiresAt : state.expiresAt)
        return Login.Found(profile: profile.name, state: state, user: user, until: until, health: health)
    }

    /// Every setting given on the command line or in the environment says what the profile
    /// already says: the session was made with these settings.
    var settingsUnchanged: Bool {
        let saved = profile.saved
        func same<T: Equatable>(_ setting: Setting<T>?, _ stored: T?) -> Bool {
            guard let setting, setting.source == .flag || setting.source == .environment else { return true }
            return setting.value == stored
        }
        return same(profile.issuer, saved.issuer) && same(profile.clientID, saved.clientID)
            && same(profile.scope, saved.scope.map(Scope.normalize) ?? Scope.normalize(Scope.defaultScope))
            && same(profile.caFile, saved.caFile) && same(profile.storage, saved.storage ?? .keyring)
            && profile.stickyValues == saved.sticky && same(profile.clientAuth, saved.clientAuth ?? ClientAuthenticationSetting.none)
            && same(profile.port, saved.port ?? 0) && profile.browserCommand?.value.text == saved.browserCommand
            && same(profile.grant, saved.grant)
    }
}
