/// The two ways to send a client secret (RFC 6749 §2.3.1): the profile's `client_auth_method`
/// (``SettingsCatalogue/clientAuthMethod``), pinned at login from what discovery advertises.
public enum ClientSecretMethod: String, Sendable, CaseIterable, Codable {
    case basic = "client_secret_basic"
    case post = "client_secret_post"
}
