import KCAuthCrypto

/// How kcauth proves which client it is at the token endpoint (RFC 6749 §2.3; OpenID Connect
/// Core §9 names the methods; RFC 8414 §2 `token_endpoint_auth_methods_supported`).
public enum ClientAuthentication: Sendable, CustomStringConvertible {
    /// A public client (RFC 6749 §2.1): only `client_id`, PKCE protects the code.
    case none
    /// HTTP Basic with the form-encoded id and secret (RFC 6749 §2.3.1): the method every
    /// provider must support.
    case clientSecretBasic(ClientSecret)
    /// `client_id` and `client_secret` in the form body (RFC 6749 §2.3.1, "NOT RECOMMENDED" but
    /// the only one some providers take).
    case clientSecretPost(ClientSecret)
    /// An assertion kcauth signs for each request with the client's own key (RFC 7523 §2.2).
    /// The signer carries the key, its `kid` and the algorithm.
    case privateKeyJWT(JWSSigner)
    /// An assertion signed by the platform, read afresh for each request (RFC 7521 §4.2).
    case clientAssertion(ClientAssertionSource)

    /// The OpenID Connect Core §9 / RFC 8414 name of the method, for `status` and `whoami`.
    /// A platform-signed assertion travels as `private_key_jwt` too.
    public var methodName: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        case .privateKeyJWT, .clientAssertion: "private_key_jwt"
        }
    }

    /// Never contains the secret or the key.
    public var description: String {
        switch self {
        case .clientAssertion(let source): "private_key_jwt (assertion from \(source))"
        case .privateKeyJWT(let signer): "private_key_jwt (\(signer.algorithm.rawValue)\(signer.keyID.map { ", kid \($0)" } ?? ""))"
        default: methodName
        }
    }
}
