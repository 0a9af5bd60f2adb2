import KCAuthContract
import KCAuthCore

/// The token source: a profile's token that stays valid for at least `minValid` seconds,
/// refreshed when needed (AppAuth's "refresh if needed, then act"). `kcauth token` (through
/// ``TokenOrSignIn``), `refresh`, the credential helpers, `exec` and the forwards run it
/// (``run(_:)``); a Swift program awaits it (``freshAccessToken(minValid:)``).
/// `KCAuthContext.tokenProvider(_:)` builds it for a resolved profile.
///
/// The common case — a valid token — touches no network and, with the runtime cache, not even
/// the keyring. A refresh happens under the stored session's cross-process lock, after
/// re-reading the stored state, so concurrent callers refresh once and share the result.
public struct TokenProvider: Sendable {
    public struct Request: Sendable, Equatable {
        public var minValid: Double
        /// `kcauth refresh`: refresh even if the token is still valid.
        public var force: Bool
        /// Ask the refresh grant for a narrower scope (implies a refresh; the stored session
        /// keeps its granted scope).
        public var scope: String?
        /// The caller wants the ID token: its expiry decides, and the cache is not used.
        public var idToken: Bool

        public init(minValid: Double = TokenDefaults.minValid, force: Bool = false, scope: String? = nil, idToken: Bool = false) {
            // Callers validate their input; this keeps a library caller's NaN from meaning "never fresh".
            self.minValid = minValid.isFinite ? min(max(minValid, TokenDefaults.minValidRange.lowerBound), TokenDefaults.minValidRange.upperBound)
                : TokenDefaults.minValid
            self.force = force
            self.scope = scope
            self.idToken = idToken
        }
    }

    /// How long to wait for another process's refresh: its HTTP deadline plus keyring time.
    public static let lockTimeout = SessionWriter.lockTimeout

    /// The profile this provider serves.
    public let profile: String
    let store: any SecretStore
    let clock: any TimeSource
    let lock: any ProfileLock
    let cache: (any TokenCache)?
    let binding: CacheBinding
    /// Built only when a refresh is needed, so the hot path never initialises libcurl.
    let refresher: @Sendable () throws -> TokenRefresher
    /// Every write of the session: the refresh's new tokens, the rotated refresh token, and
    /// the end of a session the provider refused.
    let writer: SessionWriter
    /// Where the provider says what it decided (`--debug`): cache, store, refresh.
    let trace: any TraceSink

    /// A provider over given parts (the context builds it from a resolved profile; tests pass fakes).
    public init(profile: String, store: any SecretStore, clock: any TimeSource, lock: any ProfileLock, cache: (any TokenCache)?,
                binding: CacheBinding, trace: any TraceSink = NoTrace(), refresher: @escaping @Sendable () throws -> TokenRefresher) {
        self.trace = trace
        self.profile = profile
        self.store = store
        self.clock = clock
        self.lock = lock
        self.cache = cache
        self.binding = binding
        self.refresher = refresher
        writer = SessionWriter(store: store, storage: binding.storage, cache: cache)
    }

    public func run(_ request: Request) throws -> IssuedToken {
        let mayReuse = !request.force && request.scope == nil
        let cached = mayReuse && !request.idToken ? cache?.read(profile: profile) : nil
        if let cached, binding.admits(cached), stillValid(cached.expiresAt, request.minValid) {
            trace.emit(decision("token.cache", "served", ("expires_at", .text(cached.expiresAt?.description ?? "unknown"))))
            return IssuedToken(cached)
        }
        trace.emit(decision("token.cache", "not used", ("why", .text(cacheMiss(request, mayReuse: mayReuse, cached: cached)))))
        var seen = try readState(profile)
        if mayReuse, fresh(seen, request) {
            trace.emit(decision("token.session", "served from the store", ("expires_at", .text(seen.expiresAt?.description ?? "unknown"))))
            return remember(seen, profile)
        }
        trace.emit(decision("token.session", "refresh needed", ("why", .text(mayReuse ? "valid for less than \(Int(request.minValid)) s" : "asked for"))))

        // The lock is the stored session's (``ProfileLock``): the one every process that read
        // this session takes, whatever its settings say. A sign-in with another provider or
        // client may replace the session while we wait; then its lock is the one to hold.
        for _ in 0..<3 {
            let key = SecretKey(profile: profile, session: seen)
            let outcome: Locked = try lock.withLock(key, timeout: Self.lockTimeout) {
                // Another process may have refreshed (or logged out) while we waited for the lock.
                let current = try readState(profile)
                guard SecretKey(profile: profile, session: current) == key else { return .replaced(current) }
                if current.refreshToken != seen.refreshToken || current.accessToken != seen.accessToken,
                   request.scope == nil, fresh(current, request) {
                    trace.emit(decision("token.session", "served: another process refreshed it meanwhile"))
                    return .issued(remember(current, profile))
                }
                if mayReuse, fresh(current, request) { return .issued(remember(current, profile)) }
                return .issued(try refresh(current, request))
            }
            switch outcome {
            case .issued(let token): return token
            case .replaced(let other):
                trace.emit(decision("token.session", "replaced by another sign-in while waiting for the lock"))
                if request.scope == nil, fresh(other, request) { return remember(other, profile) }
                seen = other
            }
        }
        throw KCAuthError(.timedOut, "the session of profile '\(profile)' kept being replaced by other sign-ins; not refreshing",
                          hint: "try again once the other sign-ins have ended")
    }

    /// What the refresh lock gave: the token, or the session that replaced the one locked.
    private enum Locked {
        case issued(IssuedToken)
        case replaced(AuthState)
    }

    private func decision(_ name: String, _ outcome: String, _ more: (String, TraceValue)...) -> TraceEvent {
        TraceEvent(name, [TraceField("profile", .text(profile)), TraceField("decision", .text(outcome))] + more.map { TraceField($0.0, $0.1) })
    }

    /// Why the runtime cache did not answer (said only in a trace).
    private func cacheMiss(_ request: Request, mayReuse: Bool, cached: CachedToken?) -> String {
        guard mayReuse else { return request.force ? "a refresh was asked for" : "a narrower scope was asked for" }
        guard !request.idToken else { return "the ID token is asked for" }
        guard cache != nil else { return "no runtime cache (off, or a session kept in memory)" }
        guard let cached else { return "nothing cached" }
        guard binding.admits(cached) else { return "the cached token is another session's (store, issuer, client or session)" }
        return "the cached token is valid for less than \(Int(request.minValid)) s"
    }

    /// Runs under the lock. The stored refresh token is the source of truth: a failure is
    /// judged against what the store holds *now*, so one process can never delete or overwrite
    /// a session another process has just rotated (whatever lock that process took).
    private func refresh(_ current: AuthState, _ request: Request) throws -> IssuedToken {
        var rotatedAway = current
        let next: AuthState
        do {
            next = try refresher().refresh(current, profile: profile, scope: request.scope, keepRotated: { rotated in
                // The old refresh token is spent: keep the new one before anything can fail.
                rotatedAway.refreshToken = rotated
                try writer.refreshed(rotatedAway, profile: profile)
            })
        } catch let error as KCAuthError {
            return try afterFailure(error, current: current, rotatedAway: rotatedAway, request)
        }
        return try issue(next, current: current, request)
    }

    /// A refresh that failed, judged against the store: another process's newer session serves
    /// this call (or the error stands), a session the provider ended is deleted, anything else
    /// leaves the store as it is. Always throws, unless the newer session serves.
    private func afterFailure(_ error: KCAuthError, current: AuthState, rotatedAway: AuthState, _ request: Request) throws -> IssuedToken {
        let ours: [Secret?] = [current.refreshToken, rotatedAway.refreshToken]
        let stored = try? store.read(profile: profile).flatMap { try? AuthState.decode($0, profile: profile) }
        if let newer = stored, !ours.contains(newer.refreshToken) {
            // Another process stored a newer session meanwhile: it is not ours to delete,
            // and its token serves this call if it is still valid.
            if stillValid(request.idToken ? newer.idTokenExpiresAt : newer.expiresAt, 0) { return remember(newer, profile) }
            throw error
        }
        if error.code == .loginRequired, stored != nil,
           RefreshRefusal.saysSessionIsOver(oauthError: error.oauthError, description: error.cause) {
            // The provider says the session is over, and the store still holds the refresh
            // token that was refused: compare-and-delete. Settings stay. Every environment's
            // cached copy of it is retired with it. (An answer that only implies it, such as
            // a bare `invalid_request`, leaves the store to the next sign-in: `RefreshRefusal`.)
            writer.discard(profile: profile, session: current.sessionID, binding: binding)
        }
        throw error  // transient (network, 5xx, timeout): the stored state stays as it is
    }

    /// The refresh's answer, kept with the session and handed out.
    private func issue(_ next: AuthState, current: AuthState, _ request: Request) throws -> IssuedToken {
        if request.scope != nil {
            // A narrowed token answers this call only. The session keeps its granted scope and
            // its access token (so `token`, `whoami` and `status` go on describing the session),
            // and takes the rotated refresh token, which RFC 6749 §6 gives the original scope.
            var session = current
            session.refreshToken = next.refreshToken
            session.refreshExpiresAt = next.refreshExpiresAt
            session.obtainedAt = next.obtainedAt
            try writer.refreshed(session, profile: profile)
            return IssuedToken(next)
        }
        try writer.refreshed(next, profile: profile)
        var issued = remember(next, profile)
        if !fresh(next, request) {
            // The freshest token there is: hand it out, but say why every call refreshes.
            guard stillValid(request.idToken ? issued.idTokenExpiresAt : issued.expiresAt, 0) else {
                throw KCAuthError(.provider, "the provider did not issue a new \(request.idToken ? "ID" : "access") token on refresh",
                                  hint: "check the client's token lifespans at the provider")
            }
            issued.notice = .shorterThanMinimumValidity(requested: request.minValid)
        }
        return issued
    }

    private func readState(_ profile: String) throws -> AuthState {
        let read: String?
        do {
            read = try store.read(profile: profile)
        } catch let error as KCAuthError where error.code == .storageLocked {
            cache?.noteStore(binding.storage, locked: true)   // `kcauth prompt` says "locked" from it
            throw error
        }
        cache?.noteStore(binding.storage, locked: false)
        guard let secret = read else {
            cache?.retire(profile: profile, session: nil, binding: binding)
            throw KCAuthError(.loginRequired, "not logged in (profile '\(profile)', \(store.name) storage)", remedy: .signIn(profile: profile))
        }
        return try AuthState.decode(secret, profile: profile)
    }

    private func remember(_ state: AuthState, _ profile: String) -> IssuedToken {
        cache?.write(CachedToken(state, storage: binding.storage), profile: profile)
        return IssuedToken(state)
    }

    private func fresh(_ state: AuthState, _ request: Request) -> Bool {
        if request.idToken {
            guard state.idToken != nil else { return false }
            let expiry = state.idTokenExpiresAt ?? state.idToken.flatMap(IDTokenClaims.unverified)?.exp
            return stillValid(expiry, request.minValid)
        }
        return stillValid(state.expiresAt, request.minValid)
    }

    /// A token without a known expiry is taken as valid: the provider did not say otherwise.
    private func stillValid(_ expiry: Instant?, _ minValid: Double) -> Bool {
        CachePolicy.stillValid(expiry?.epochSeconds, now: clock.instant.epochSeconds, minValid: minValid)
    }
}
