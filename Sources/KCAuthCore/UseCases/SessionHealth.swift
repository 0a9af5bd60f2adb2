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

    public static func of(_ state: AuthState, now: Double) -> SessionHealth {
        if let expiry = state.expiresAtEpoch, now >= expiry {
            guard state.refreshToken != nil else {
                return .loginRequired(reason: "the access token expired at \(RFC3339.format(expiry)) and there is no refresh token")
            }
            // Keycloak's offline tokens may have no known expiry (AuthState.refreshExpiresAt):
            // unknown means "try it", not "expired".
            if let refreshExpiry = state.refreshExpiresAt.flatMap(RFC3339.parse), now >= refreshExpiry {
                return .loginRequired(reason: "the session expired at \(RFC3339.format(refreshExpiry))")
            }
            return .refreshable
        }
        return .valid
    }
}

/// "in 4m 59s", "3h 2m ago": a short distance in time for people, next to an RFC 3339 time.
public enum RelativeTime {
    public static func describe(_ seconds: Double) -> String {
        let total = Int(abs(seconds).rounded(.down))
        let text: String
        switch total {
        case ..<60: text = "\(total)s"
        case ..<3600: text = "\(total / 60)m \(total % 60)s"
        case ..<86400: text = "\(total / 3600)h \(total % 3600 / 60)m"
        default: text = "\(total / 86400)d \(total % 86400 / 3600)h"
        }
        return seconds >= 0 ? "in \(text)" : "\(text) ago"
    }

    /// `2025-11-21T14:03:09Z (in 4m 59s)`
    public static func stamp(_ epoch: Double, now: Double) -> String {
        "\(RFC3339.format(epoch)) (\(describe(epoch - now)))"
    }
}
