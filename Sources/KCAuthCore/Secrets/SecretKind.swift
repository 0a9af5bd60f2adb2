/// What a ``Secret`` is, named as the protocols name it (the word its redacted form starts with).
public enum SecretKind: String, Sendable, CaseIterable {
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
    case idToken = "id_token"
    /// RFC 6749 §4.1.2.
    case authorizationCode = "code"
    /// RFC 7636 §4.1.
    case codeVerifier = "code_verifier"
    /// RFC 6749 §10.12.
    case state
    /// OpenID Connect Core §3.1.2.1.
    case nonce
    /// RFC 8628 §3.2.
    case deviceCode = "device_code"
    /// RFC 8628 §3.2: short-lived, typed by the person at the provider.
    case userCode = "user_code"
    /// RFC 6749 §2.3.1.
    case clientSecret = "client_secret"
    /// RFC 7523 §2.2: a signed JWT that authenticates the client.
    case clientAssertion = "client_assertion"
    /// A CI platform's token for asking its ID-token service (GitHub Actions' request token).
    case platformRequestToken = "request_token"
    /// RFC 9449 §4.
    case dpopProof = "dpop_proof"
    /// A DPoP private key (RFC 9449 §4.1).
    case dpopKey = "dpop_key"
    /// The encrypted store's passphrase.
    case passphrase
    /// The cookie that binds a browser to a login (`BrowserBinding`).
    case cookie
    /// The one-shot path of a local start URL the browser is opened at.
    case startPath = "start_path"
    /// An `Authorization` header's value (`Bearer …`, `Basic …`, `DPoP …`).
    case authorization
    /// The token a revocation or logout request names (RFC 7009 §2.1).
    case token
    /// A stored session (the JSON document with its tokens).
    case session
    /// A value kcauth does not know to be harmless: a provider's unknown field, a callback's
    /// unknown parameter.
    case value
}
