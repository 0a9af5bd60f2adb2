internal import COpenSSL

/// Keys kcauth makes itself: the per-profile DPoP key (RFC 9449 §4.1), with what the proof's
/// `jwk` header and the key's storage need.
extension PrivateKey {
    /// The bits of the RSA keys made for RS256/PS256 (RFC 7518 §3.3: at least 2048).
    public static let generatedRSABits = 2048
    /// Larger than any PKCS#8 PEM of the keys kcauth makes (RSA-2048 is about 1.7 KiB).
    static let pemCapacity = 8 * 1024

    /// A new key for `algorithm`: P-256 for ES256, RSA-2048 for RS256 and PS256.
    public static func generate(for algorithm: JWSAlgorithm) throws -> PrivateKey {
        let kind: Kind
        switch algorithm.family {
        case .ecdsa(.p256): kind = .ecP256
        case .rsaPKCS1, .rsaPSS: kind = .rsa(bits: generatedRSABits)
        default: throw CryptoError.invalidKey("kcauth makes keys for ES256, RS256 and PS256 only, not \(algorithm.rawValue)")
        }
        OpenSSLErrorQueue.clear()
        guard let pkey = kc_generate_key(kind == .ecP256 ? 256 : Int32(generatedRSABits)) else {
            throw CryptoError.library("cannot generate a key for \(algorithm.rawValue): \(OpenSSLErrorQueue.drain() ?? kc_crypto_load_error().map { String(cString: $0) } ?? "unknown error")")
        }
        return PrivateKey(owning: pkey, kind: kind)
    }

    /// The key as unencrypted PKCS#8 PEM, for the session store (which is where a secret of
    /// kcauth's lives: keyring, owner-only file, memory). Never print or log it.
    public func pkcs8PEM() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.pemCapacity)
        defer { for i in buffer.indices { buffer[i] = 0 } }
        let length = buffer.withUnsafeMutableBufferPointer { kc_private_key_to_pem(pkey, $0.baseAddress, $0.count) }
        guard length > 0 else { throw CryptoError.library("cannot write the private key as PEM") }
        return Array(buffer[..<Int(length)])
    }

    /// The public half as a JWK (RFC 7517 §4; RFC 7518 §6.2.1, §6.3.1): `kty` and the public
    /// numbers only, as a DPoP proof's `jwk` header must be (RFC 9449 §4.2: no private key).
    public func publicJWK() throws -> JWK {
        switch kind {
        case .ecP256, .ecP384:
            let length = kind == .ecP256 ? 32 : 48
            var x = [UInt8](repeating: 0, count: length), y = [UInt8](repeating: 0, count: length)
            let ok = x.withUnsafeMutableBufferPointer { xs in
                y.withUnsafeMutableBufferPointer { kc_ec_public_xy(pkey, xs.baseAddress, $0.baseAddress, length) }
            }
            guard ok == 1 else { throw CryptoError.library("cannot read the EC public key") }
            return JWK(kty: "EC", crv: kind == .ecP256 ? "P-256" : "P-384", x: Base64URL.encode(x), y: Base64URL.encode(y))
        case .rsa:
            var n = [UInt8](repeating: 0, count: 1024), e = [UInt8](repeating: 0, count: 16)
            var nLength = 0, eLength = 0
            let ok = n.withUnsafeMutableBufferPointer { ns in
                e.withUnsafeMutableBufferPointer { kc_rsa_public_ne(pkey, ns.baseAddress, ns.count, &nLength, $0.baseAddress, $0.count, &eLength) }
            }
            guard ok == 1 else { throw CryptoError.library("cannot read the RSA public key") }
            return JWK(kty: "RSA", n: Base64URL.encode(Array(n[..<nLength])), e: Base64URL.encode(Array(e[..<eLength])))
        }
    }
}
