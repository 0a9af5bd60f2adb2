/// What a refused refresh grant (RFC 6749 §6) means for the session.
///
/// kcauth builds the refresh request itself and always completely (`grant_type`,
/// `refresh_token`, `client_id`, the client's authentication, `scope` only when narrowing), so a
/// refusal of it is about the one thing the provider checks that kcauth cannot: the refresh
/// token and the session behind it. Providers say so in different words; the decision is made
/// for the class of answer, not for one provider's text:
///
/// | provider | a dead, unknown or ended refresh token is answered with |
/// |---|---|
/// | Keycloak 26 | 400 `invalid_grant`: `Token is not active`, `Invalid refresh token`, `Session not active`, `Client session not active`, `Stale token`, `Offline session not active`, … (docs: keycloak-26 notes §i); 400 `invalid_scope` `Client no longer has requested consent from user` on a plain refresh |
/// | LemonLDAP::NG | 400 `invalid_request`, no description |
/// | others seen in the field | `unauthorized_client` with a description naming the session; HTTP 401 with no OAuth error |
/// | RFC 6749 §5.2 (what most providers send) | 400 `invalid_grant` |
///
/// The classes:
/// - the session is over (exit 4, sign in again): `invalid_grant`, `invalid_request`,
///   `unauthorized_client` (this client was given a refresh token for this grant at sign-in; if
///   the client itself changed, the new sign-in says so), `invalid_token` (RFC 6750 §3.1's "expired,
///   revoked"), `invalid_scope` on a refresh that asked for no scope of its own (the grant no longer
///   covers the session's scope), and a 401 without an OAuth error to a client that does not
///   authenticate (the refresh token is its only credential);
/// - the session stands (exit 1, the stored state is kept): `invalid_client` (the client's
///   credentials or id), a 401 without an OAuth error to a client that authenticates,
///   `invalid_scope` for a narrowed `scope`, `unsupported_grant_type`, `server_error`,
///   `temporarily_unavailable`, any other code, 5xx and anything that is not an OAuth error.
///
/// The stored session is deleted only when the answer itself says it is over (`saysSessionIsOver`):
/// `invalid_grant`, or a description about the token or the session. A bare `invalid_request` or
/// 401 still ends the command with exit 4, and leaves the stored state for the next sign-in to
/// replace: an answer that is misread then costs nothing.
public enum RefreshRefusal {
    static let sessionOverCodes: Set<OAuthErrorCode> = [.invalidGrant, .invalidRequest, .unauthorizedClient,
                                                        OAuthErrorCode("invalid_token")]

    /// Whether `error`, the provider's answer to a refresh, means the session is over for the user.
    static func endsSession(_ error: KCAuthError, clientAuthenticates: Bool, narrowedScope: Bool) -> Bool {
        guard let status = error.httpStatus, (400..<500).contains(status) else { return false }
        guard let code = error.oauthError else {
            return status == 401 && !clientAuthenticates
        }
        if code == .invalidScope { return !narrowedScope }
        return sessionOverCodes.contains(code)
    }

    /// Whether the answer says in so many words that the session is over: then the stored
    /// session is deleted (compare-and-delete, `TokenProvider`).
    public static func saysSessionIsOver(oauthError: OAuthErrorCode?, description: String?) -> Bool {
        guard let oauthError else { return false }
        if oauthError == .invalidGrant { return true }
        guard let words = description?.lowercased() else { return false }
        return ["refresh", "token", "session", "consent"].contains { words.contains($0) }
    }
}
