/// Polls the token endpoint until the user approves the device sign-in (RFC 8628 §3.4–3.5).
///
/// Timing, all on the sleeper's monotonic clock:
/// - the first poll comes `interval` seconds after the code was issued, and every later poll
///   `interval` seconds after the previous *answer* — the provider measures from when a poll
///   arrived, so counting from the answer can never look too fast to it;
/// - `slow_down` adds 5 s to the interval for the rest of the flow (§3.5; Keycloak never raises
///   it itself, it only complains);
/// - the loop stops at `expires_in` without another poll: the code is dead by then.
/// The wait is cut into steps of at most a second, each announced, so a terminal can count down.
public struct DevicePoller: Sendable {
    public enum Progress: Sendable, Equatable {
        /// Waiting for the next poll; `remaining` seconds until the code expires.
        case waiting(remaining: Double)
        /// The provider answered `slow_down`; polls are now `interval` seconds apart.
        case slowedDown(interval: Double)
    }

    /// RFC 8628 §3.5: "the interval MUST be increased by 5 seconds for this and all subsequent requests".
    public static let slowDownStep: Double = 5

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
        let fields = request.tokenRequestFields(deviceCode: authorization.deviceCode)
        while true {
            try wait(until: nextPoll, deadline: deadline, profile: profile, notify: notify)
            do {
                let tokens = if let authenticator {
                    try http.postForm(TokenResponse.self, to: tokenEndpoint, fields: fields, authenticator: authenticator,
                                      what: "waiting for the device sign-in")
                } else {
                    try http.postForm(TokenResponse.self, to: tokenEndpoint, fields: fields, what: "waiting for the device sign-in")
                }
                http.trace.emit(TraceEvent("device.poll", ("outcome", .text("approved"))))
                return tokens
            } catch let error as KCAuthError where error.code == .provider {
                http.trace.emit(TraceEvent("device.poll", ("outcome", .text(error.oauthError?.rawValue ?? "refused")),
                                           ("next_in_s", .number(error.oauthError == .slowDown ? interval + Self.slowDownStep : interval)),
                                           ("expires_in_s", .number((deadline - sleeper.monotonicNow()).rounded()))))
                switch error.oauthError {
                case .authorizationPending?:
                    break
                case .slowDown?:
                    interval += Self.slowDownStep
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
            nextPoll = sleeper.monotonicNow() + interval
        }
    }

    /// Sleeps until `time`, announcing the countdown; throws once the code has expired.
    private func wait(until time: Double, deadline: Double, profile: String, notify: (Progress) -> Void) throws {
        while true {
            let now = sleeper.monotonicNow()
            guard now < deadline else { throw Self.expired(profile) }
            guard now < time else { return }
            notify(.waiting(remaining: deadline - now))
            sleeper.sleep(min(1, time - now, deadline - now))
        }
    }

    static func expired(_ profile: String) -> KCAuthError {
        KCAuthError(.timedOut, "the code expired before the sign-in was approved",
                    oauthError: .expiredToken, remedy: .signInAgain(profile: profile))
    }
}
