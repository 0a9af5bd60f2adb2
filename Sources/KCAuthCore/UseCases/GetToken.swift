/// `kcauth token` and `kcauth refresh`: a token that stays valid for at least `minValid`
/// seconds, refreshing when needed (AppAuth's "refresh if needed, then act").
///
/// The common case — a valid token — touches no network and, with the runtime cache, not even
/// the keyring. A refresh happens under the profile's cross-process lock, after re-reading the
/// stored state, so concurrent callers refresh once and share the result.
public struct GetToken: Sendable {
    public struct Request: Sendable, Equatable {
        public var profile: String
        public var minValid: Double
        /// `kcauth refresh`: refresh even if the token is still valid.
        public var force: Bool
        /// Ask the refresh grant for a narrower scope (implies a refresh).
        public var scope: String?
        /// The caller wants the ID token: its expiry decides, and the cache is not used.
        public var idToken: Bool

        public init(profile: String, minValid: Double = 30, force: Bool = false, scope: String? = nil, idToken: Bool = false) {
            self.profile = profile
            self.minValid = minValid
            self.force = force
            self.scope = scope
            self.idToken = idToken
        }
    }

    /// How long to wait for another process's refresh: its HTTP deadline plus keyring time.
    public static let lockTimeout: Double = 75

    let store: any SecretStore
    let clock: any TimeSource
    let lock: any ProfileLock
    let cache: (any TokenCache)?
    /// Built only when a refresh is needed, so the hot path never initialises libcurl.
    let refresher: @Sendable () -> TokenRefresher

    public init(store: any SecretStore, clock: any TimeSource, lock: any ProfileLock, cache: (any TokenCache)?,
                refresher: @escaping @Sendable () -> TokenRefresher) {
        self.store = store
        self.clock = clock
        self.lock = lock
        self.cache = cache
        self.refresher = refresher
    }

    public func run(_ request: Request) throws -> IssuedToken {
        let profile = request.profile
        let mayReuse = !request.force && request.scope == nil
        if mayReuse, !request.idToken, let cached = cache?.read(profile: profile), fresh(cached.expiresAt, request) {
            return IssuedToken(cached)
        }
        let seen = try readState(profile)
        if mayReuse, fresh(seen, request) { return remember(seen, profile) }

        return try lock.withLock(profile: profile, timeout: Self.lockTimeout) {
            // Another process may have refreshed (or logged out) while we waited for the lock.
            let current = try readState(profile)
            let someoneElseRefreshed = current.refreshToken != seen.refreshToken || current.accessToken != seen.accessToken
            if someoneElseRefreshed, request.scope == nil, fresh(current, request) {
                return remember(current, profile)
            }
            if mayReuse, fresh(current, request) { return remember(current, profile) }

            let next: AuthState
            do {
                next = try refresher().refresh(current, profile: profile, scope: request.scope)
            } catch let error as KCAuthError where error.code == .loginRequired && error.cause == "invalid_grant" {
                // The session is over at the provider: its tokens are worthless; the settings stay.
                cache?.remove(profile: profile)
                _ = try? store.delete(profile: profile)
                throw error
            }
            try store.write(try next.encoded(), for: SecretKey(profile: profile, issuer: next.issuer, clientID: next.clientID))
            var issued = remember(next, profile)
            if !fresh(next, request) {
                // The freshest token there is: hand it out, but say why every call refreshes.
                guard stillValid(request.idToken ? issued.idTokenExpiresAt : issued.expiresAt, 0) else {
                    throw KCAuthError(.provider, "the provider did not issue a new \(request.idToken ? "ID" : "access") token on refresh")
                }
                issued.notice = "the provider issues tokens valid for less than --min-valid \(Int(request.minValid)) s; every call will refresh"
            }
            return issued
        }
    }

    private func readState(_ profile: String) throws -> AuthState {
        guard let secret = try store.read(profile: profile) else {
            cache?.remove(profile: profile)
            throw KCAuthError(.loginRequired, "not logged in (profile '\(profile)')", hint: LoginHint.command(profile: profile))
        }
        return try AuthState.decode(secret, profile: profile)
    }

    private func remember(_ state: AuthState, _ profile: String) -> IssuedToken {
        cache?.write(CachedToken(state), profile: profile)
        return IssuedToken(state)
    }

    private func fresh(_ state: AuthState, _ request: Request) -> Bool {
        if request.idToken {
            guard state.idToken != nil else { return false }
            let expiry = state.idTokenExpiresAtEpoch ?? state.idToken.flatMap(IDTokenClaims.unverified)?.exp
            return stillValid(expiry, request.minValid)
        }
        return stillValid(state.expiresAtEpoch, request.minValid)
    }

    private func fresh(_ expiresAt: String?, _ request: Request) -> Bool {
        stillValid(expiresAt.flatMap(RFC3339.parse), request.minValid)
    }

    /// A token without a known expiry is taken as valid: the provider did not say otherwise.
    private func stillValid(_ expiry: Double?, _ minValid: Double) -> Bool {
        guard let expiry else { return true }
        return expiry - clock.now() >= minValid
    }
}
