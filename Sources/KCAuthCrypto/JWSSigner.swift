internal import COpenSSL
internal import FoundationEssentials

/// Produces compact JWS (RFC 7515 §7.1) with a ``PrivateKey``: RS256/384/512 (RFC 7518 §3.3),
/// PS256/384/512 (§3.5) and ES256/ES384 (§3.4), for signed client assertions (RFC 7523).
public struct JWSSigner: Sendable {
    public let key: PrivateKey
    public let algorithm: JWSAlgorithm
    /// The `kid` header (RFC 7515 §4.1.4), telling the provider which registered key to use.
    public let keyID: String?

    /// Throws ``CryptoError`` `.invalidKey` when `key` cannot sign with `algorithm`.
    public init(key: PrivateKey, algorithm: JWSAlgorithm? = nil, keyID: String? = nil) throws {
        let algorithm = algorithm ?? key.defaultAlgorithm
        guard key.fits(algorithm) else {
            throw CryptoError.invalidKey("\(algorithm.rawValue) needs \(Self.keyNeeded(for: algorithm)); the key does not fit")
        }
        self.key = key
        self.algorithm = algorithm
        self.keyID = keyID
    }

    /// The compact JWS of `payload` (for a JWT, its claims' JSON), with a header of `alg`,
    /// `typ` (when given), `kid` (when set) and `jwk` (when given: a DPoP proof carries its
    /// public key, RFC 9449 §4.2).
    public func sign(payload: [UInt8], type: String? = "JWT", jwk: JWK? = nil) throws -> String {
        let header = try Self.headerJSON(alg: algorithm.rawValue, kid: keyID, typ: type, jwk: jwk)
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try rawSignature(over: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    private struct Header: Encodable {
        var alg: String
        var kid: String?
        var typ: String?
        var jwk: JWK?
    }

    private static func headerJSON(alg: String, kid: String?, typ: String?, jwk: JWK?) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(Header(alg: alg, kid: kid, typ: typ, jwk: jwk)))
        } catch {
            throw CryptoError(code: .library, message: "cannot encode the JWS header")
        }
    }

    /// The signature as JWS carries it: for RSA the raw `EVP_DigestSign` output; for ECDSA the
    /// DER result turned into `R || S` (RFC 7518 §3.4: exactly 64 bytes for ES256, 96 for ES384).
    private func rawSignature(over input: [UInt8]) throws -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let context = kc_EVP_MD_CTX_new() else { throw CryptoError.library("EVP_MD_CTX_new failed") }
        defer { kc_EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard kc_EVP_DigestSignInit(context, &keyContext, algorithm.digest, nil, key.pkey) == 1 else {
            throw CryptoError.library("EVP_DigestSignInit failed for \(algorithm.rawValue)")
        }
        if algorithm.family == .rsaPSS {
            // RFC 7518 §3.5: MGF1 with the same hash, salt as long as the hash.
            guard let keyContext, kc_set_pss_padding(keyContext) == 1 else {
                throw CryptoError.library("cannot set RSASSA-PSS padding")
            }
        }
        var length = 0
        let sized = input.withUnsafeBufferPointer { kc_EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1, length > 0 else { throw CryptoError.library("EVP_DigestSign failed for \(algorithm.rawValue)") }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { kc_EVP_DigestSign(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1 else { throw CryptoError.library("EVP_DigestSign failed for \(algorithm.rawValue)") }
        signature.removeSubrange(length...)   // ECDSA's DER is often shorter than the bound

        guard case .ecdsa(let curve) = algorithm.family else { return signature }
        var raw = [UInt8](repeating: 0, count: 2 * curve.coordinateLength)
        let converted = signature.withUnsafeBufferPointer { der in
            raw.withUnsafeMutableBufferPointer { kc_ecdsa_der_to_raw(der.baseAddress, der.count, $0.baseAddress, curve.coordinateLength) }
        }
        guard converted == 1 else { throw CryptoError.library("cannot convert the ECDSA signature to R || S") }
        return raw
    }

    private static func keyNeeded(for algorithm: JWSAlgorithm) -> String {
        switch algorithm.family {
        case .rsaPKCS1, .rsaPSS: "an RSA key"
        case .ecdsa(let curve): "an EC key on \(curve.rawValue)"
        }
    }
}
