internal import COpenSSL

/// The JWS signature algorithms kcauth accepts (RFC 7518 §3.1): RSASSA-PKCS1-v1_5, RSASSA-PSS
/// and ECDSA. `none` and the HMAC algorithms are deliberately absent: an ID token is verified
/// against the provider's published public keys, never a shared secret.
public enum JWSAlgorithm: String, Sendable, CaseIterable {
    case RS256, RS384, RS512
    case PS256, PS384, PS512
    case ES256, ES384
}


extension JWSAlgorithm {
    enum Family: Equatable {
        case rsaPKCS1
        case rsaPSS
        case ecdsa(ECCurve)
    }

    var family: Family {
        switch self {
        case .RS256, .RS384, .RS512: .rsaPKCS1
        case .PS256, .PS384, .PS512: .rsaPSS
        case .ES256: .ecdsa(.p256)
        case .ES384: .ecdsa(.p384)
        }
    }

    /// The JWK `kty` this algorithm needs (RFC 7518 §6.1).
    var keyType: String {
        if case .ecdsa = family { return "EC" }
        return "RSA"
    }

    /// OpenSSL's `EVP_MD` for the algorithm's hash.
    var digest: OpaquePointer? {
        switch self {
        case .RS256, .PS256, .ES256: kc_EVP_sha256()
        case .RS384, .PS384, .ES384: kc_EVP_sha384()
        case .RS512, .PS512: kc_EVP_sha512()
        }
    }
}
