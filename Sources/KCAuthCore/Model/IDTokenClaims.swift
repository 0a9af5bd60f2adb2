import KCAuthCrypto

import FoundationEssentials

/// The ID token claims kcauth checks or shows (OpenID Connect Core §2, §5.1; Keycloak adds
/// `preferred_username`, `realm_access`, `typ`).
public struct IDTokenClaims: Sendable, Equatable, Decodable {
    public var iss: String
    public var sub: String
    public var aud: [String]
    public var exp: Instant
    public var iat: Instant
    /// When the person authenticated (OIDC Core §2); required when `max_age` was requested.
    public var authTime: Instant?
    /// The authentication context class reference (OIDC Core §2).
    public var acr: String?
    public var nonce: String?
    public var azp: String?
    public var atHash: String?
    public var preferredUsername: String?
    public var name: String?
    public var email: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, azp
        case atHash = "at_hash"
        case authTime = "auth_time"
        case acr
        case preferredUsername = "preferred_username"
        case name, email
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        iss = try c.decode(String.self, forKey: .iss)
        sub = try c.decode(String.self, forKey: .sub)
        // `aud` is a string or an array of strings (RFC 7519 §4.1.3).
        if let one = try? c.decode(String.self, forKey: .aud) {
            aud = [one]
        } else {
            aud = try c.decode([String].self, forKey: .aud)
        }
        // RFC 7519 NumericDates, range-checked here so no later arithmetic can trap.
        guard let exp = try c.decodeNumericDate(.exp) else {
            throw DecodingError.keyNotFound(CodingKeys.exp, .init(codingPath: [], debugDescription: "no exp"))
        }
        guard let iat = try c.decodeNumericDate(.iat) else {
            throw DecodingError.keyNotFound(CodingKeys.iat, .init(codingPath: [], debugDescription: "no iat"))
        }
        self.exp = exp
        self.iat = iat
        authTime = try c.decodeNumericDate(.authTime)
        acr = try? c.decodeIfPresent(String.self, forKey: .acr)
        nonce = try c.decodeIfPresent(String.self, forKey: .nonce)
        azp = try c.decodeIfPresent(String.self, forKey: .azp)
        atHash = try c.decodeIfPresent(String.self, forKey: .atHash)
        preferredUsername = try c.decodeIfPresent(String.self, forKey: .preferredUsername)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        email = try c.decodeIfPresent(String.self, forKey: .email)
    }

    /// The name to greet the user with.
    public var displayName: String { preferredUsername ?? email ?? name ?? sub }
}

extension IDTokenClaims {
    /// Claims of a token that was validated when it was stored; no signature check here.
    public static func unverified(_ token: Secret) -> IDTokenClaims? { unverified(token.reveal()) }

    /// Claims of a token that was validated when it was stored; no signature check here.
    public static func unverified(_ token: String) -> IDTokenClaims? {
        guard let jws = try? CompactJWS(token) else { return nil }
        return try? JSONDecoder().decode(IDTokenClaims.self, from: Data(jws.payload))
    }
}
