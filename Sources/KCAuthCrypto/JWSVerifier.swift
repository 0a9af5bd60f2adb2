internal import COpenSSL

/// Chooses JWKS keys for a JWS and verifies JWS signatures (RFC 7515 §5.2, RFC 7518 §3).
public enum JWSVerifier {
    /// Keys from `set` that may have signed a JWS with `header`:
    /// - `kid` equal to the header's, when the header has one (RFC 7515 §4.1.4);
    /// - `use` absent or "sig" (RFC 7517 §4.2). Keycloak publishes a `"use": "enc"` RSA-OAEP key
    ///   in the same JWKS as its signing key, with the same shape;
    /// - `alg` absent or equal to the header's (RFC 7517 §4.4);
    /// - `kty` of the algorithm's family: "RSA" for RS* and PS*, "EC" with the right `crv` for ES*.
    ///
    /// Empty for an unsupported `alg`, and for an unknown `kid`; the caller may then refetch the
    /// JWKS once, since the provider may have rotated its keys.
    public static func candidateKeys(for header: JOSEHeader, in set: JWKSet) -> [JWK] {
        guard let algorithm = JWSAlgorithm(rawValue: header.alg) else { return [] }
        return set.keys.filter { key in
            if let kid = header.kid, key.kid != kid { return false }
            if let use = key.use, use != "sig" { return false }
            if let alg = key.alg, alg != header.alg { return false }
            guard key.kty == algorithm.keyType else { return false }
            if case .ecdsa(let curve) = algorithm.family, key.crv.flatMap(ECCurve.init(rawValue:)) != curve { return false }
            return true
        }
    }

    /// Verifies the signature of `jws` with `key`. Returns normally only if it verifies.
    ///
    /// Throws ``CryptoError`` with code
    /// - `.unsupportedAlgorithm` for `none`, HS*, or any `alg` outside ``JWSAlgorithm``;
    /// - `.invalidKey` when `key` cannot be turned into a public key or does not fit the `alg`
    ///   (wrong `kty` or `crv`, `use` other than "sig", another `alg`, RSA under 2048 bits);
    /// - `.badSignature` when the signature does not verify, including a signature of the wrong
    ///   length (ES256 is exactly 64 bytes, R || S, RFC 7518 §3.4; RSA is the modulus length);
    /// - `.library` for an unexpected OpenSSL failure, with OpenSSL's error text as the cause.
    public static func verify(_ jws: CompactJWS, with key: JWK) throws {
        guard let algorithm = JWSAlgorithm(rawValue: jws.header.alg) else {
            throw CryptoError(code: .unsupportedAlgorithm, message: "the JWS algorithm \"\(jws.header.alg)\" is not supported")
        }
        let publicKey = try PublicKey(jwk: key, for: algorithm)
        let signature: [UInt8]
        switch algorithm.family {
        case .rsaPKCS1, .rsaPSS:
            guard jws.signature.count == publicKey.signatureSize else {
                throw CryptoError.badSignature("an \(algorithm.rawValue) signature with this key is \(publicKey.signatureSize) bytes, not \(jws.signature.count)")
            }
            signature = jws.signature
        case .ecdsa(let curve):
            signature = try derSignature(rawRS: jws.signature, curve: curve, algorithm: algorithm)
        }
        try verify(signature, over: jws.signingInput, with: publicKey, algorithm: algorithm)
    }

    /// RFC 7518 §3.4: a JWS carries ECDSA as R || S, each the coordinate size; OpenSSL wants DER.
    private static func derSignature(rawRS: [UInt8], curve: ECCurve, algorithm: JWSAlgorithm) throws -> [UInt8] {
        guard rawRS.count == 2 * curve.coordinateLength else {
            throw CryptoError.badSignature("an \(algorithm.rawValue) signature is \(2 * curve.coordinateLength) bytes (R || S), not \(rawRS.count)")
        }
        OpenSSLErrorQueue.clear()
        var der = [UInt8](repeating: 0, count: 2 * curve.coordinateLength + 16)   // 2 INTEGER headers, sign bytes, SEQUENCE header
        let length = rawRS.withUnsafeBufferPointer { rs in
            der.withUnsafeMutableBufferPointer { out in
                kc_ecdsa_raw_to_der(rs.baseAddress, rs.count, out.baseAddress, out.count)
            }
        }
        guard length > 0 else { throw CryptoError.library("cannot DER-encode the ECDSA signature") }
        return Array(der.prefix(Int(length)))
    }

    private static func verify(_ signature: [UInt8], over input: [UInt8], with key: PublicKey, algorithm: JWSAlgorithm) throws {
        OpenSSLErrorQueue.clear()
        guard let context = kc_EVP_MD_CTX_new() else { throw CryptoError.library("EVP_MD_CTX_new failed") }
        defer { kc_EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard kc_EVP_DigestVerifyInit(context, &keyContext, algorithm.digest, nil, key.pkey) == 1 else {
            throw CryptoError.library("EVP_DigestVerifyInit failed for \(algorithm.rawValue)")
        }
        if algorithm.family == .rsaPSS {
            guard let keyContext, kc_set_pss_padding(keyContext) == 1 else {
                throw CryptoError.library("cannot set RSASSA-PSS padding")
            }
        }
        let result = signature.withUnsafeBufferPointer { signature in
            input.withUnsafeBufferPointer { input in
                kc_EVP_DigestVerify(context, signature.baseAddress, signature.count, input.baseAddress, input.count)
            }
        }
        switch result {
        case 1:
            return
        case 0:
            OpenSSLErrorQueue.clear()   // OpenSSL may queue the reason; it is not a library fault
            throw CryptoError.badSignature("the \(algorithm.rawValue) signature does not verify")
        default:
            throw CryptoError.library("EVP_DigestVerify failed for \(algorithm.rawValue)")
        }
    }
}
