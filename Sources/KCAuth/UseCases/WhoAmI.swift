import KCAuthCore

/// `kcauth whoami`: who is signed in to a profile, from the stored session.
///
/// The identity comes from the stored ID token, decoded without checking its signature again.
/// That is sound because kcauth stores an ID token only after validating it (signature against
/// the provider's JWKS, `iss`, `aud`, `azp`, `exp`, `nonce`: `IDTokenValidator`, at login and at
/// every refresh), and the store is the user's own keyring. Checking again would need the JWKS
/// (network) and would fail for an ID token that merely expired, which still says correctly who
/// signed in. With `userinfo` the provider itself is asked, after refreshing an expired access
/// token under the usual lock (so "expired but refreshable" is not reported as a dead session),
/// which also proves that the session is alive there. A fresh userinfo answer is kept with the
/// session (`SessionWriter.amended`), so later offline `whoami`/`status` calls can name the user.
public struct WhoAmI: Sendable {
    public struct Identity: Sendable, Equatable {
        public var profile: String
        public var issuer: String
        public var clientID: String
        /// Claims of the stored ID token; nil when the session has none.
        public var claims: IdentityClaims?
        /// Where the roles come from: "id_token", or "access_token" when the ID token carries no
        /// role claims (Keycloak's role mappers add them to the access token only, by default);
        /// nil when neither token has them.
        public var rolesSource: String?
        public var realmRoles: [String]
        public var clientRoles: [ClientRoles]
        public var scopes: [String]
        public var accessTokenExpiresAt: Instant?
        public var refreshTokenExpiresAt: Instant?
        public var hasRefreshToken: Bool
        public var health: SessionHealth
        /// The store's name ("keyring", …).
        public var storage: String
        /// The userinfo answer (OpenID Connect Core §5.3), when asked for.
        public var userinfo: JSONValue?
        /// A DPoP session's key and whether the provider bound the session (RFC 9449 §5:
        /// `token_type` DPoP). Never the key.
        public var dpop: DPoPBinding?

        public init(profile: String, issuer: String, clientID: String, claims: IdentityClaims?, rolesSource: String?,
                    realmRoles: [String], clientRoles: [ClientRoles], scopes: [String], accessTokenExpiresAt: Instant?,
                    refreshTokenExpiresAt: Instant?, hasRefreshToken: Bool, health: SessionHealth, storage: String, userinfo: JSONValue?) {
            self.profile = profile
            self.issuer = issuer
            self.clientID = clientID
            self.claims = claims
            self.rolesSource = rolesSource
            self.realmRoles = realmRoles
            self.clientRoles = clientRoles
            self.scopes = scopes
            self.accessTokenExpiresAt = accessTokenExpiresAt
            self.refreshTokenExpiresAt = refreshTokenExpiresAt
            self.hasRefreshToken = hasRefreshToken
            self.health = health
            self.storage = storage
            self.userinfo = userinfo
        }
    }

    /// What asking the provider needs: the token refreshed first, HTTP, and the lock and
    /// writer that keep the answer with the session.
    struct Online: Sendable {
        let tokens: TokenProvider
        let http: @Sendable () -> OAuthHTTP
        let lock: any ProfileLock
        let writer: SessionWriter
    }

    let store: any SecretStore
    let clock: any TimeSource
    /// nil: the stored session only (asking for userinfo is then an internal error).
    let online: Online?

    /// The stored session only, never the provider.
    public init(store: any SecretStore, clock: any TimeSource) {
        self.init(store: store, clock: clock, online: nil)
    }

    init(store: any SecretStore, clock: any TimeSource, online: Online?) {
        self.store = store
        self.clock = clock
        self.online = online
    }

    /// Throws `loginRequired` when nothing usable is stored. With `userinfo`, the provider's
    /// userinfo endpoint is called with the stored access token, refreshed first if needed.
    public func run(profile: String, userinfo: Bool = false) throws -> Identity {
        guard userinfo else { return try identity(profile: profile) }
        guard let online else { throw KCAuthError(.internal, "no provider access for userinfo") }
        _ = try online.tokens.run(TokenProvider.Request(minValid: 10))
        let identity = try self.identity(profile: profile, userinfo: online.http())
        if let answer = identity.userinfo {
            keep(answer, profile: profile, key: SecretKey(profile: profile, issuer: identity.issuer, clientID: identity.clientID), online)
        }
        return identity
    }

    /// Best effort, under the refresh lock: the identity is a convenience, never worth an error.
    /// `key`: the session the answer is about (the one the identity was read from).
    private func keep(_ userinfo: JSONValue, profile: String, key: SecretKey, _ online: Online) {
        _ = try? online.lock.withLock(key, timeout: 5) {
            guard let secret = try store.read(profile: profile) else { return }
            var state = try AuthState.decode(secret, profile: profile)
            // Another sign-in replaced the session meanwhile: its answer is not this one's.
            guard SecretKey(profile: profile, session: state) == key, state.userinfo != userinfo else { return }
            state.userinfo = userinfo
            try online.writer.amended(state, profile: profile)
        }
    }

    /// The identity the stored session holds; with `http`, the provider's userinfo answer too
    /// (the caller has refreshed the access token).
    func identity(profile: String, userinfo http: OAuthHTTP? = nil) throws -> Identity {
        guard let secret = try store.read(profile: profile) else {
            throw KCAuthError(.loginRequired, "not logged in (profile '\(profile)', \(store.name) storage)", remedy: .signIn(profile: profile))
        }
        let state = try AuthState.decode(secret, profile: profile)
        let health = SessionHealth.of(state, now: clock.instant)
        if case .loginRequired(let reason) = health {
            throw KCAuthError(.loginRequired, "profile '\(profile)' is no longer signed in: \(reason)", remedy: .signIn(profile: profile))
        }
        let claims = state.idToken.flatMap(IdentityClaims.init(unverifiedToken:))?.filling(from: state.userinfo)
            ?? state.serviceAccountClaims
        let roleClaims: (String, IdentityClaims)?
        if let claims, claims.hasRoleClaims {
            roleClaims = ("id_token", claims)
        } else if let access = IdentityClaims(unverifiedToken: state.accessToken), access.hasRoleClaims {
            roleClaims = ("access_token", access)
        } else {
            roleClaims = nil
        }
        var identity = Identity(
            profile: profile, issuer: state.issuer, clientID: state.clientID, claims: claims,
            rolesSource: roleClaims?.0, realmRoles: roleClaims?.1.realmRoles ?? [], clientRoles: roleClaims?.1.clientRoles ?? [],
            scopes: state.scope.split(separator: " ").map(String.init),
            accessTokenExpiresAt: state.expiresAt, refreshTokenExpiresAt: state.refreshExpiresAt,
            hasRefreshToken: state.refreshToken != nil, health: health, storage: store.name, userinfo: nil)
        identity.dpop = DPoPBinding(state)
        if let http {
            identity.userinfo = try Userinfo(http: try http.proving(session: state, clock: clock)).fetch(state, expectedSubject: claims?.subject, profile: profile)
        }
        return identity
    }
}
