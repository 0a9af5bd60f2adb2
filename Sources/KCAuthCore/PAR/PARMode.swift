/// The profile's `par` setting: whether the browser flow pushes its authorization
/// request (RFC 9126) so the browser's URL carries only `client_id` and `request_uri`.
public enum PARMode: String, Sendable, Equatable, CaseIterable {
    /// Push when discovery lists `pushed_authorization_request_endpoint` (the default).
    case auto
    /// Always push; fail when the provider has no PAR endpoint. For providers that require PAR
    /// without saying so (Keycloak's discovery says `require_pushed_authorization_requests: false`
    /// even for a client that requires it).
    case always
    /// Never push.
    case never
}
