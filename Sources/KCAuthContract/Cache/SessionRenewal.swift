/// How a session gets its next access token without a person, as the runtime cache records it
/// (``CacheRecord/renewal``): the words are the record's values.
public enum SessionRenewal: String, Sendable, CaseIterable, Codable {
    /// A refresh token is stored (RFC 6749 §6): `kcauth token` refreshes.
    case refreshToken = "refresh_token"
    /// A client-credentials session (RFC 6749 §4.4): the client asks again with its own credentials.
    case clientCredentials = "client_credentials"
    /// Neither: when the access token expires, only a sign-in helps.
    case none
}
