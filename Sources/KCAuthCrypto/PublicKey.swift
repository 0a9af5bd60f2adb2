internal import COpenSSL

/// An OpenSSL public key built from a JWK that fits one algorithm; freed when released.
///
/// Built per verification and never shared, so it needs no `Sendable` conformance.
final class PublicKey {
    /// RFC 7518 §3.3 and §3.5: "A key of size 2048 bits or larger MUST be used".
    static let minimumRSABits: Int32 = 2048

    let pkey: OpaquePointer

    /// Checks that `jwk` may be used with `algorithm` and imports it.
    /// Throws ``CryptoError`` `.invalidKey` if it may not or cannot be.
    init(jwk: JWK, for algorithm: JWSAlgorithm) throws {
        if let use = jwk.use, use != "sig" {
            throw CryptoError.invalidKey("the key is for \"use\": \"\(use)\", not signatures")
        }
        if let alg = jwk.alg, JWSAlgorithm(rawValue: alg) != algorithm {
            throw CryptoError.invalidKey("the key is for \(alg), the token uses \(algorithm.rawValue)")
        }
        guard jwk.kty == algorithm.keyType else {
            throw CryptoError.invalidKey("\(algorithm.rawValue) needs a \(algorithm.keyType) key, not \"\(jwk.kty)\"")
        }
        OpenSSLErrorQueue.clear()
        // Every check that may throw happens before `pkey` is set: once all stored properties
        // are initialized, a throwing init runs `deinit`, which frees the key.
        switch algorithm.family {
        case .rsaPKCS1, .rsaPSS:
            pkey = try Self.importRSA(jwk)
        case .ecdsa(let curve):
            pkey = try Self.importEC(jwk, curve: curve)
        }
    }

    deinit {
        kc_EVP_PKEY_free(pkey)
    }

    /// The largest signature this key can make, in bytes; for RSA, the modulus length.
    var signatureSize: Int {
        Int(kc_EVP_PKEY_get_size(pkey))
    }

    private static func importRSA(_ jwk: JWK) throws -> OpaquePointer {
        guard let n = jwk.n.flatMap(Base64URL.decode), let e = jwk.e.flatMap(Base64URL.decode),
              !n.isEmpty, !e.isEmpty else {
            throw CryptoError.invalidKey("the RSA key needs base64url \"n\" and \"e\"")
        }
        let key = n.withUnsafeBufferPointer { n in
            e.withUnsafeBufferPointer { e in
                kc_rsa_public_key(n.baseAddress, n.count, e.baseAddress, e.count)
            }
        }
        guard let key else {
            throw CryptoError(code: .invalidKey, message: "OpenSSL rejected the RSA key", cause: OpenSSLErrorQueue.drain())
        }
        guard kc_EVP_PKEY_get_bits(key) >= minimumRSABits else {
            kc_EVP_PKEY_free(key)
            throw CryptoError.invalidKey("the RSA key is shorter than \(minimumRSABits) bits")
        }
        return key
    }

    private static func importEC(_ jwk: JWK, curve: ECCurve) throws -> OpaquePointer {
        guard jwk.crv.flatMap(ECCurve.init(rawValue:)) == curve else {
            throw CryptoError.invalidKey("the EC key is on \(jwk.crv.map { "\"\($0)\"" } ?? "no curve"), not \(curve.rawValue)")
        }
        // RFC 7518 §6.2.1.2/3: each coordinate MUST be the full size of a coordinate for the curve.
        guard let x = jwk.x.flatMap(Base64URL.decode), let y = jwk.y.flatMap(Base64URL.decode),
              x.count == curve.coordinateLength, y.count == curve.coordinateLength else {
            throw CryptoError.invalidKey("the \(curve.rawValue) key needs base64url \"x\" and \"y\" of \(curve.coordinateLength) bytes each")
        }
        let key = x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                kc_ec_public_key(curve.bits, x.baseAddress, y.baseAddress, x.count)
            }
        }
        guard let key else {
            throw CryptoError(code: .invalidKey, message: "OpenSSL rejected the EC key (is the point on the curve?)",
                              cause: OpenSSLErrorQueue.drain())
        }
        return key
    }
}
