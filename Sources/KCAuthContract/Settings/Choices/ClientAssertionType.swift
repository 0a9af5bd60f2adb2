/// The profile's `client_assertion_type`: what a platform's assertion is sent as
/// (`client_assertion_type`, RFC 7521 §4.2). The words are the setting's
/// (``SettingsCatalogue/clientAssertionType``).
public enum ClientAssertionType: String, Sendable, Equatable, CaseIterable, Codable {
    /// A JWT (RFC 7523 §2.2): Kubernetes service-account tokens, CI platforms' ID tokens (the default).
    case jwtBearer = "jwt-bearer"
    /// A SPIFFE JWT-SVID, as Keycloak's SPIFFE identity provider takes it (preview in Keycloak 26.6).
    case spiffe
}
