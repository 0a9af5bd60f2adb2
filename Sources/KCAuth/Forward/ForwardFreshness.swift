import KCAuthContract
import KCAuthCore
import Synchronization

/// How fresh a forwarded token is made. The remote host chooses `min_valid`, but the provider
/// chooses how long a token lives, so a remote request could otherwise make the laptop refresh
/// on every call (each new token still "too short"). Three rules:
///
/// - a request's minimum validity is capped at what a fresh token can give: the lifetime of the
///   session's current token (as the provider issued it), less a margin so that a token just
///   refreshed satisfies the cap for a while (``margin(lifetime:)``);
/// - a request the held token does not satisfy even then refreshes at most once per
///   ``refreshInterval`` per profile (in this forward, and not within that time of any refresh
///   of the session), and otherwise gets the freshest token there is: the held one;
/// - a token that is no longer valid at all is always refreshed (nothing else can be handed out).
///
/// With a narrower scope every token is a refresh of its own (the session keeps its scope), so
/// the forward keeps its last narrowed token per profile and hands it out while it serves.
final class ForwardFreshness: Sendable {
    /// A forward causes at most one refresh per profile in this many seconds.
    static let refreshInterval: Double = 30

    /// What a request got, for the log.
    struct Outcome {
        var token: IssuedToken
        /// The request's minimum validity was more than a fresh token gives.
        var capped = false
        /// This request made the laptop refresh.
        var refreshed = false
        /// A refresh was due but held back by the rate limit: the held token was handed out.
        var limited = false
    }

    private struct Narrowed {
        var token: IssuedToken
        var obtained: Instant
    }

    private let refreshes = Mutex<[String: Instant]>([:])
    private let narrowed = Mutex<[String: Narrowed]>([:])

    /// What a fresh token leaves unused of its lifetime, so that it satisfies a capped request
    /// for as long as the rate limit lasts (a quarter of the lifetime for short-lived tokens).
    static func margin(lifetime: Double) -> Double { min(refreshInterval, lifetime / 4) }

    func token(context: KCAuthContext, profile: ResolvedProfile, request: ForwardMessage.Request, scope: String?) throws -> Outcome {
        let provider = context.tokenProvider(profile)
        let now = context.clock.instant
        let name = profile.name
        if let scope { return try narrowedToken(provider, context: context, profile: profile, request: request, scope: scope, now: now) }

        // The held token, refreshed only when it is not valid at all.
        let held = try provider.run(TokenProvider.Request(minValid: 0, idToken: request.idToken))
        var outcome = Outcome(token: held)
        if Self.satisfies(held, request.minValid, idToken: request.idToken, now: now) { return outcome }

        let session = peek(context, profile)
        var wanted = request.minValid
        if let lifetime = session.flatMap({ Self.lifetime(of: $0, idToken: request.idToken) }) {
            let cap = max(lifetime - Self.margin(lifetime: lifetime), 0)
            if wanted > cap {
                wanted = cap
                outcome.capped = true
            }
        }
        if Self.satisfies(held, wanted, idToken: request.idToken, now: now) { return outcome }
        let sessionRefreshedLately = session.map { now.seconds(since: $0.obtainedAt) < Self.refreshInterval } ?? false
        if sessionRefreshedLately || refreshedLately(name, now: now),
           Self.satisfies(held, min(wanted, TokenDefaults.minValid), idToken: request.idToken, now: now) {
            outcome.limited = true
            return outcome
        }
        outcome.token = try provider.run(TokenProvider.Request(minValid: wanted, idToken: request.idToken))
        outcome.refreshed = outcome.token.accessToken != held.accessToken || outcome.token.idToken != held.idToken
        if outcome.refreshed { refreshes.withLock { $0[name] = now } }
        return outcome
    }

    private func narrowedToken(_ provider: TokenProvider, context: KCAuthContext, profile: ResolvedProfile, request: ForwardMessage.Request,
                               scope: String, now: Instant) throws -> Outcome {
        let name = profile.name
        if let kept = narrowed.withLock({ $0[name] }) {
            var outcome = Outcome(token: kept.token)
            var wanted = request.minValid
            if let lifetime = Self.lifetime(kept.token, obtained: kept.obtained, idToken: request.idToken) {
                let cap = max(lifetime - Self.margin(lifetime: lifetime), 0)
                if wanted > cap {
                    wanted = cap
                    outcome.capped = true
                }
            }
            if Self.satisfies(kept.token, wanted, idToken: request.idToken, now: now) { return outcome }
            if refreshedLately(name, now: now),
               Self.satisfies(kept.token, min(wanted, TokenDefaults.minValid), idToken: request.idToken, now: now) {
                outcome.limited = true
                return outcome
            }
        }
        let token = try provider.run(TokenProvider.Request(minValid: request.minValid, scope: scope, idToken: request.idToken))
        narrowed.withLock { $0[name] = Narrowed(token: token, obtained: now) }
        refreshes.withLock { $0[name] = now }
        return Outcome(token: token, refreshed: true)
    }

    private func refreshedLately(_ profile: String, now: Instant) -> Bool {
        refreshes.withLock { $0[profile] }.map { now.seconds(since: $0) < Self.refreshInterval } ?? false
    }

    /// The session as stored, to learn how long its tokens live; nil when it cannot be read
    /// (then nothing is capped, and the token use case reports what is wrong).
    private func peek(_ context: KCAuthContext, _ profile: ResolvedProfile) -> AuthState? {
        guard let secret = try? context.store(for: profile).read(profile: profile.name) else { return nil }
        return try? AuthState.decode(secret, profile: profile.name)
    }

    /// How long the session's current token lived when the provider issued it; nil when unknown.
    static func lifetime(of state: AuthState, idToken: Bool) -> Double? {
        let expiry = idToken ? (state.idTokenExpiresAt ?? state.idToken.flatMap(IDTokenClaims.unverified)?.exp) : state.expiresAt
        return expiry.flatMap { positive($0.seconds(since: state.obtainedAt)) }
    }

    static func lifetime(_ token: IssuedToken, obtained: Instant, idToken: Bool) -> Double? {
        expiry(token, idToken: idToken).flatMap { positive($0.seconds(since: obtained)) }
    }

    static func expiry(_ token: IssuedToken, idToken: Bool) -> Instant? {
        idToken ? (token.idTokenExpiresAt ?? token.idToken.flatMap(IDTokenClaims.unverified)?.exp) : token.expiresAt
    }

    private static func positive(_ seconds: Double) -> Double? { seconds >= 1 ? seconds : nil }

    static func satisfies(_ token: IssuedToken, _ minValid: Double, idToken: Bool, now: Instant) -> Bool {
        CachePolicy.stillValid(expiry(token, idToken: idToken)?.epochSeconds, now: now.epochSeconds, minValid: minValid)
    }
}
