/// Whether a stored session can still give out an access token, judged locally (no network):
/// the single rule behind `status`, `whoami` and their exit codes.
public enum SessionHealth: Sendable, Equatable {
    /// The access token has not expired (or its expiry is unknown: the provider did not say).
    case valid
    /// The access token has expired, but a refresh token is stored whose expiry, if known, is
    /// still ahead: the next `kcauth token` refreshes without a login.
    case refreshable
    /// Only a new login helps; `reason` says why, for people.
    case loginRequired(reason: String)

    /// The name used in JSON output (documented in README, never renamed).
    public var code: String {
        switch self {
        case .valid: return "valid"
        case .refreshable: return "refreshable"
        case .loginRequired: return "login_required"
        }
    }

    public var isUsable: Bool { if case .loginRequired = self { return false } else { return true } }

    public static func of(_ state: AuthState, now: Instant) -> SessionHealth {
        if let expiry = state.expiresAt, now >= expiry {
            // A client-credentials session renews itself with the client's own credentials.
            if state.isClientCredentials { return .refreshable }
            guard state.refreshToken != nil else {
                return .loginRequired(reason: "the access token expired at \(expiry) and there is no refresh token")
            }
            // Keycloak's offline tokens may have no known expiry (AuthState.refreshExpiresAt):
            // unknown means "try it", not "expired".
            if let refreshExpiry = state.refreshExpiresAt, now >= refreshExpiry {
                return .loginRequired(reason: "the session expired at \(refreshExpiry)")
            }
            return .refreshable
        }
        return .valid
    }
}
