/// An OAuth / OpenID Connect error code as the provider sent it (RFC 6749 §4.1.2.1, §5.2;
/// RFC 8628 §3.5; OpenID Connect Core §3.1.2.6). A struct, not an enum: providers send codes
/// that no list anticipates, and those must survive unchanged.
public struct OAuthErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // RFC 6749
    public static let invalidRequest = OAuthErrorCode("invalid_request")
    public static let invalidClient = OAuthErrorCode("invalid_client")
    public static let invalidGrant = OAuthErrorCode("invalid_grant")
    public static let unauthorizedClient = OAuthErrorCode("unauthorized_client")
    public static let unsupportedGrantType = OAuthErrorCode("unsupported_grant_type")
    public static let invalidScope = OAuthErrorCode("invalid_scope")
    public static let accessDenied = OAuthErrorCode("access_denied")
    public static let serverError = OAuthErrorCode("server_error")
    public static let temporarilyUnavailable = OAuthErrorCode("temporarily_unavailable")
    // RFC 8628 §3.5
    public static let authorizationPending = OAuthErrorCode("authorization_pending")
    public static let slowDown = OAuthErrorCode("slow_down")
    public static let expiredToken = OAuthErrorCode("expired_token")
    // OpenID Connect Core §3.1.2.6
    public static let interactionRequired = OAuthErrorCode("interaction_required")
    public static let loginRequired = OAuthErrorCode("login_required")
    public static let consentRequired = OAuthErrorCode("consent_required")
    public static let accountSelectionRequired = OAuthErrorCode("account_selection_required")

    /// Authorization-response errors that mean "the person did not (or could not) sign in here":
    /// cancelled or denied, exit 3, not a provider fault.
    public var meansDenied: Bool {
        [.accessDenied, .consentRequired, .interactionRequired, .loginRequired, .accountSelectionRequired].contains(self)
    }
}
