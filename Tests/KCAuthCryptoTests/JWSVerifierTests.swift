import KCAuthCrypto
import Testing

/// One token and the key that should verify it.
struct SignedToken: Sendable, CustomTestStringConvertible {
    let name: String
    let token: String
    let key: JWK
    var testDescription: String { name }
}

@Suite("JWSVerifier.verify (RFC 7515 §5.2, RFC 7518 §3)")
struct JWSVerifierTests {
    static let valid: [SignedToken] = [
        SignedToken(name: "RS256", token: Fixtures.rs256, key: Fixtures.rsaA),
        SignedToken(name: "RS384", token: Fixtures.rs384, key: Fixtures.rsaA),
        SignedToken(name: "PS256", token: Fixtures.ps256, key: Fixtures.rsaA),
        SignedToken(name: "ES256", token: Fixtures.es256, key: Fixtures.p256),
        SignedToken(name: "ES384", token: Fixtures.es384, key: Fixtures.p384),
        SignedToken(name: "RFC 7515 A.2 (RS256)", token: Fixtures.rfc7515A2, key: Fixtures.rfc7515A2Key),
        SignedToken(name: "RFC 7515 A.3 (ES256)", token: Fixtures.rfc7515A3, key: Fixtures.rfc7515A3Key),
    ]

    @Test("a genuine signature verifies", arguments: valid)
    func validSignatureVerifies(_ signed: SignedToken) throws {
        try JWSVerifier.verify(CompactJWS(signed.token), with: signed.key)
    }

    @Test("a tampered payload fails", arguments: valid)
    func tamperedPayload(_ signed: SignedToken) {
        let forged = replacingPayload(of: signed.token, with: #"{"iss":"joe","sub":"admin"}"#)
        #expect(verificationFailure(forged, with: signed.key) == .badSignature)
    }

    @Test("a signature with one flipped bit fails", arguments: valid)
    func tamperedSignature(_ signed: SignedToken) {
        for index in [0, 17, -1] {
            let forged = replacingSignature(of: signed.token) { signature in
                var signature = signature
                signature[index < 0 ? signature.count - 1 : index] ^= 0x01
                return signature
            }
            #expect(verificationFailure(forged, with: signed.key) == .badSignature, "byte \(index)")
        }
    }

    @Test("a signature made by another key fails")
    func signatureFromAnotherKey() {
        #expect(verificationFailure(Fixtures.rs256ByB, with: Fixtures.rsaA) == .badSignature)
        #expect(verificationFailure(Fixtures.es256ByOther, with: Fixtures.p256) == .badSignature)
        #expect(verificationFailure(Fixtures.rs256, with: Fixtures.rsaB) == .badSignature)
    }

    @Test("a header alg swapped between RS256 and PS256 fails")
    func algorithmSubstitution() {
        let rsAsPS = replacingHeader(of: Fixtures.rs256, with: #"{"alg":"PS256","kid":"rsa-a"}"#)
        #expect(verificationFailure(rsAsPS, with: Fixtures.rsaA) == .badSignature)
        let psAsRS = replacingHeader(of: Fixtures.ps256, with: #"{"alg":"RS256","kid":"rsa-a"}"#)
        #expect(verificationFailure(psAsRS, with: Fixtures.rsaA) == .badSignature)
    }

    @Test("PS256 requires the salt to be as long as the hash (RFC 7518 §3.5)")
    func pssSaltLength() {
        #expect(verificationFailure(Fixtures.ps256MaxSalt, with: Fixtures.rsaA) == .badSignature)
    }

    @Test("ES256 signatures must be exactly 64 bytes of R || S (RFC 7518 §3.4)")
    func es256SignatureLength() {
        #expect(verificationFailure(Fixtures.es256DER, with: Fixtures.p256) == .badSignature)
        for length in [0, 63, 65, 96] {
            let forged = replacingSignature(of: Fixtures.es256) { _ in [UInt8](repeating: 1, count: length) }
            #expect(verificationFailure(forged, with: Fixtures.p256) == .badSignature, "length \(length)")
        }
    }

    @Test("out-of-range signature values fail as bad signatures, not library errors")
    func outOfRangeSignatures() {
        let rZero = replacingSignature(of: Fixtures.es256) { [UInt8](repeating: 0, count: 32) + $0.suffix(32) }
        let allOnes = replacingSignature(of: Fixtures.es256) { _ in [UInt8](repeating: 0xFF, count: 64) }
        let aboveModulus = replacingSignature(of: Fixtures.rs256) { _ in [UInt8](repeating: 0xFF, count: 256) }
        let truncated = replacingSignature(of: Fixtures.rs256) { Array($0.dropLast()) }
        #expect(verificationFailure(rZero, with: Fixtures.p256) == .badSignature)
        #expect(verificationFailure(allOnes, with: Fixtures.p256) == .badSignature)
        #expect(verificationFailure(aboveModulus, with: Fixtures.rsaA) == .badSignature)
        #expect(verificationFailure(truncated, with: Fixtures.rsaA) == .badSignature)
    }

    @Test("alg none, HMAC and unknown algorithms are unsupported", arguments: ["none", "HS256", "HS512", "ES512", "EdDSA", "rs256", ""])
    func unsupportedAlgorithms(alg: String) {
        let token = replacingHeader(of: Fixtures.rs256, with: #"{"alg":"\#(alg)"}"#)
        #expect(verificationFailure(token, with: Fixtures.rsaA) == .unsupportedAlgorithm)
    }

    @Test("the fixture tokens for alg none and HS256 are unsupported whatever the key")
    func noneAndHMACFixtures() {
        #expect(verificationFailure(Fixtures.algNone, with: Fixtures.rsaA) == .unsupportedAlgorithm)
        #expect(verificationFailure(Fixtures.hs256, with: Fixtures.rsaA) == .unsupportedAlgorithm)
        #expect(verificationFailure(Fixtures.hs256, with: JWK(kty: "oct")) == .unsupportedAlgorithm)
    }

    static let misfits: [SignedToken] = [
        SignedToken(name: "EC key for RS256", token: Fixtures.rs256, key: Fixtures.p256),
        SignedToken(name: "RSA key for ES256", token: Fixtures.es256, key: Fixtures.rsaA),
        SignedToken(name: "P-384 key for ES256", token: Fixtures.es256, key: Fixtures.p384),
        SignedToken(name: "P-256 key for ES384", token: Fixtures.es384, key: Fixtures.p256),
        SignedToken(name: "symmetric key for RS256", token: Fixtures.rs256, key: JWK(kty: "oct")),
        SignedToken(name: "key for RS256 used with PS256", token: Fixtures.ps256, key: Fixtures.rsaA.with { $0.alg = "RS256" }),
        SignedToken(name: "encryption key", token: Fixtures.rs256, key: Fixtures.rsaA.with { $0.use = "enc" }),
        SignedToken(name: "RSA-1024 key (RFC 7518 §3.3)", token: Fixtures.rs256Weak, key: Fixtures.rsaWeak),
        SignedToken(name: "RSA key without n", token: Fixtures.rs256, key: Fixtures.rsaA.with { $0.n = nil }),
        SignedToken(name: "RSA key with non-base64url n", token: Fixtures.rs256, key: Fixtures.rsaA.with { $0.n = "not+base64/" }),
        SignedToken(name: "RSA key with empty e", token: Fixtures.rs256, key: Fixtures.rsaA.with { $0.e = "" }),
        SignedToken(name: "EC key without crv", token: Fixtures.es256, key: Fixtures.p256.with { $0.crv = nil }),
        SignedToken(name: "EC key with a short x", token: Fixtures.es256, key: Fixtures.p256.with { $0.x = Base64URL.encode([UInt8](repeating: 7, count: 31)) }),
        SignedToken(name: "EC point not on the curve", token: Fixtures.es256, key: Fixtures.p256.with { $0.y = $0.x }),
    ]

    @Test("a key that does not fit the algorithm is invalid", arguments: misfits)
    func misfittingKeys(_ misfit: SignedToken) {
        #expect(verificationFailure(misfit.token, with: misfit.key) == .invalidKey)
    }

    @Test("a key whose alg and use match the token verifies")
    func matchingAlgAndUse() throws {
        try JWSVerifier.verify(CompactJWS(Fixtures.rs256), with: Fixtures.rsaA.with { $0.alg = "RS256"; $0.use = "sig" })
        try JWSVerifier.verify(CompactJWS(Fixtures.rs256), with: Fixtures.rsaA.with { $0.alg = nil; $0.use = nil })
    }

    @Test("errors describe themselves with their code and cause")
    func errorDescription() {
        let error = CryptoError(code: .library, message: "EVP_DigestVerify failed", cause: "error:1C800064:Provider routines::bad decrypt")
        #expect(error.description == "EVP_DigestVerify failed [library]: error:1C800064:Provider routines::bad decrypt")
        #expect(CryptoError(code: .badSignature, message: "no").description == "no [badSignature]")
    }
}
