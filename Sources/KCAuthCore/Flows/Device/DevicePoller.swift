/// Polls the token endpoint until the user approves the device sign-in (RFC 8628 §3.4–3.5).
///
/// Timing, all on the sleeper's monotonic clock:
/// - the first poll comes `interval` seconds after the code was issued, and every later poll
///   `interval` seconds after the previous *answer* — the provider measures from when a poll
///   arrived, so counting from the answer can never look too fast to it;
/// - `slow_down` adds 5 s to the interval for the rest of the flow (§3.5; Keycloak never raises
///   it itself, it only complains);
/// - a failure that is not the provider's answer — the connection refused, reset or timed out,
///   an HTTP 5xx or 429 — ends nothing: the person on the other device may be signing in right
///   now. The next try waits the interval doubled for each failure in a row (§3.5 recommends
///   exponential backoff), at most `longestBackoff`, and at least a `Retry-After` the provider
///   gave; the interval itself comes back with the provider's next answer;
/// - the loop stops at `expires_in` without another poll: the code is dead by then.
/// The wait is cut into steps of at most a second, each announced, so a terminal can count down.
/// Only the provider's own answers (`access_denied`, `expired_token`, …) end the flow early.
public struct DevicePoller: Sendable {
    public enum Progress: Sendable, Equatable {
        /// Waiting for the next poll; `remaining` seconds until the code expires.
        case waiting(remaining: Double)
        /// The provider answered `slow_down`; polls are now `interval` seconds apart.
        case slowedDown(interval: Double)
        /// A poll failed without an answer from the provider (`failure` says how); polling goes
        /// on until the code expires. Said once per outage.
        case unreachable(KCAuthError)
        /// The provider answers again after `unreachable`.
        case reachable
    }

    /// RFC 8628 §3.5: "the interval MUST be increased by 5 seconds for this and all subsequent requests".
    public static let slowDownStep: Double = 5
    /// The longest wait between two tries while the provider cannot be reached, unless its
    /// interval or a `Retry-After` is longer.
    public static let longestBackoff: Double = 60

    let http: OAuthHTTP
    let sleeper: any Sleeper
    /// A confidential client authenticates every poll (RFC 8628 §3.4): a fresh assertion each time.
    let authenticator: ClientAuthenticator?

    public init(http: OAuthHTTP, sleeper: any Sleeper, authenticator: ClientAuthenticator? = nil) {
        self.http = http
        self.sleeper = sleeper
        self.authenticator = authenticator
    }

    /// `profile` only shapes the hints. Returns the token response of the approved sign-in.
    public func poll(tokenEndpoint: String, request: DeviceAuthorizationRequest, authorization: DeviceAuthorizationResponse,
                     profile: String, notify: (Progress) -> Void) throws -> TokenResponse {
        let deadline = sleeper.monotonicNow() + authorization.expiresIn
        var interval = authorization.interval
        var nextPoll = sleeper.monotonicNow() + interval
        var failuresInARow = 0
        var lastFailure: KCAuthError?
        let fields = request.tokenRequestFields(deviceCode: authorization.deviceCode)
        while true {
            guard wait(until: nextPoll, deadline: deadline, notify: notify) else {
                throw Self.expired(profile, unreachable: failuresInARow > 0 ? lastFailure : nil)
            }
            var pause = interval
            do {
                let tokens = if let authenticator {
                    try http.postForm(TokenResponse.self, to: tokenEndpoint, fields: fields, authenticator: authenticator,
                                      what: "waiting for the device sign-in")
                } else {
                    try http.postForm(TokenResponse.self, to: tokenEndpoint, fields: fields, what: "waiting for the device sign-in")
                }
                if failuresInARow > 0 { notify(.reachable) }
                http.trace.emit(TraceEvent("device.poll", ("outcome", .text("approved"))))
                return tokens
            } catch let error as KCAuthError where Self.isTransient(error) {
                failuresInARow += 1
                lastFailure = error
                if failuresInARow == 1 { notify(.unreachable(error)) }
                pause = Self.backoff(interval: interval, failuresInARow: failuresInARow, retryAfter: error.retryAfter)
                http.trace.emit(TraceEvent("device.poll", ("outcome", .text("unreachable")), ("error", .text(error.message)),
                                           ("failures_in_a_row", .number(Double(failuresInARow))), ("next_in_s", .number(pause.rounded()))))
            } catch let error as KCAuthError where error.code == .provider {
                if failuresInARow > 0 { notify(.reachable) }
                failuresInARow = 0
                http.trace.emit(TraceEvent("device.poll", ("outcome", .text(error.oauthError?.rawValue ?? "refused")),
                                           ("next_in_s", .number(error.oauthError == .slowDown ? interval + Self.slowDownStep : interval)),
                                           ("expires_in_s", .number((deadline - sleeper.monotonicNow()).rounded()))))
                switch error.oauthError {
                case .authorizationPending?:
                    break
                case .slowDown?:
                    interval += Self.slowDownStep
                    pause = interval
                    notify(.slowedDown(interval: interval))
                case let code? where code.meansDenied:
                    throw KCAuthError(.accessDenied, "sign-in was denied at the provider (\(code))", oauthError: code)
                case .expiredToken?:
                    throw Self.expired(profile)
                default:
                    var failed = error
                    failed.remedy = .signIn(profile: profile)
                    throw failed
                }
            }
            nextPoll = sleeper.monotonicNow() + pause
        }
    }

    /// Whether another try may succeed: the transport never reached the provider or lost it
    /// (`KCAuthError.transient`), or the provider (or a proxy before it) is overloaded or down
    /// for a moment (HTTP 5xx, 429, even with an OAuth error body).
    static func isTransient(_ error: KCAuthError) -> Bool {
        if error.transient { return true }
        guard let status = error.httpStatus else { return false }
        return status == 429 || (500...599).contains(status)
    }

    /// The wait before the next try after `failuresInARow` failures: the interval doubled for
    /// each, up to `longestBackoff` (or the interval, when that is longer), and no less than the
    /// provider's `Retry-After`. The code's expiry cuts every wait short (`wait(until:)`).
    static func backoff(interval: Double, failuresInARow: Int, retryAfter: Double?) -> Double {
        let doubled = interval * Double(1 << min(failuresInARow, 16))
        return max(min(doubled, max(longestBackoff, interval)), retryAfter ?? 0)
    }

    /// Sleeps until `time`, announcing the countdown; false once the code has expired.
    private func wait(until time: Double, deadline: Double, notify: (Progress) -> Void) -> Bool {
        while true {
            let now = sleeper.monotonicNow()
            guard now < deadline else { return false }
            guard now < time else { return true }
            notify(.waiting(remaining: deadline - now))
            sleeper.sleep(min(1, time - now, deadline - now))
        }
    }

    /// `unreachable`: the provider could not be reached since this failure.
    static func expired(_ profile: String, unreachable: KCAuthError? = nil) -> KCAuthError {
        let since = unreachable.map { "; the provider was unreachable at the last try (\(Sanitize.oneLine($0.message, limit: 200)))" } ?? ""
        return KCAuthError(.timedOut, "the code expired before the sign-in was approved" + since,
                           oauthError: .expiredToken, remedy: .signInAgain(profile: profile))
    }
}
