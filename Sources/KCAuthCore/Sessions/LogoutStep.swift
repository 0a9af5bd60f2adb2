/// What one server-side part of a logout came to.
public enum LogoutStep: Sendable, Equatable {
    /// The provider confirmed it.
    case ended
    /// The provider says the token or session no longer exists: as good as ended.
    case alreadyGone
    /// The provider publishes no endpoint for it (or the session has no token to send).
    case notOffered
    /// Not tried, because the provider had just proved unreachable.
    case notAttempted
    /// The endpoint does not take this request (e.g. a provider other than Keycloak answers the
    /// back-channel POST with 405); `detail` says what it answered.
    case unsupported(String)
    /// The provider could not be reached, or failed (5xx).
    case failed(KCAuthError)

    public var confirmed: Bool { self == .ended || self == .alreadyGone }
}
