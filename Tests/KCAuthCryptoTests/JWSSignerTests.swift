import KCAuthCrypto
import Testing

/// One PEM key, an algorithm it can sign with, and the public JWK (computed elsewhere) that must
/// verify what it signs.
struct SigningCase: Sendable, CustomTestStringConvertible {
    let name: String
    let pem: String
    let algorithm: JWSAlgorithm
    let publicKey: JWK
    var testDescription: String { name }
}

@Suite("PrivateKey and JWSSigner (RFC 7515 §5.1, RFC 7518 §3)")
struct JWSSignerTests {
    static let cases: [SigningCase] = [
        SigningCase(name: "RS256, PKCS#8", pem: SigningFixtures.rsaPKCS8PEM, algorithm: .RS256, publicKey: SigningFixtures.rsaPKCS8JWK),
        SigningCase(name: "RS256, traditional RSA PEM", pem: SigningFixtures.rsaTraditionalPEM, algorithm: .RS256, publicKey: SigningFixtures.rsaTraditionalJWK),
        SigningCase(name: "PS256, PKCS#8", pem: SigningFixtures.rsaPKCS8PEM, algorithm: .PS256, publicKey: SigningFixtures.rsaPKCS8JWK),
        SigningCase(name: "PS256, traditional RSA PEM", pem: SigningFixtures.rsaTraditionalPEM, algorithm: .PS256, publicKey: SigningFixtures.rsaTraditionalJWK),
        SigningCase(name: "RS512", pem: SigningFixtures.rsaPKCS8PEM, algorithm: .RS512, publicKey: SigningFixtures.rsaPKCS8JWK),
        SigningCase(name: "ES256, PKCS#8", pem: SigningFixtures.p256PKCS8PEM, algorithm: .ES256, publicKey: SigningFixtures.p256PKCS8JWK),
        SigningCase(name: "ES256, traditional EC PEM", pem: SigningFixtures.p256TraditionalPEM, algorithm: .ES256, publicKey: SigningFixtures.p256TraditionalJWK),
        SigningCase(name: "ES384", pem: SigningFixtures.p384PEM, algorithm: .ES384, publicKey: SigningFixtures.p384JWK),
    ]

    static let claims = Array(#"{"iss":"ci-robot","sub":"ci-robot","aud":"https://sso.example.test/token","exp":2000000000}"#.utf8)

    @Test("what is signed verifies with the key's public half", arguments: cases)
    func signThenVerify(_ c: SigningCase) throws {
        let signer = try JWSSigner(key: PrivateKey(pem: Array(c.pem.utf8)), algorithm: c.algorithm, keyID: "key-1")
        let token = try signer.sign(payload: Self.claims)
        let jws = try CompactJWS(token)
        #expect(jws.header == JOSEHeader(alg: c.algorithm.rawValue, kid: "key-1", typ: "JWT"))
        #expect(jws.payload == Self.claims)
        try JWSVerifier.verify(jws, with: c.publicKey)
    }

    @Test("a signed token whose payload is changed no longer verifies", arguments: cases)
    func tamperedPayloadFails(_ c: SigningCase) throws {
        let signer = try JWSSigner(key: PrivateKey(pem: Array(c.pem.utf8)), algorithm: c.algorithm)
        let token = try signer.sign(payload: Self.claims)
        #expect(verificationFailure(replacingPayload(of: token, with: #"{"iss":"someone-else"}"#), with: c.publicKey) == .badSignature)
    }

    @Test("ECDSA signatures are raw R || S, not DER (RFC 7518 §3.4)")
    func ecdsaSignaturesAreRawRS() throws {
        let p256 = try JWSSigner(key: PrivateKey(pem: Array(SigningFixtures.p256PKCS8PEM.utf8)))
        let p384 = try JWSSigner(key: PrivateKey(pem: Array(SigningFixtures.p384PEM.utf8)))
        // DER would be 70–72 bytes and vary; R || S is always exactly twice the coordinate size.
        for _ in 0..<20 {
            #expect(try CompactJWS(p256.sign(payload: Self.claims)).signature.count == 64)
            #expect(try CompactJWS(p384.sign(payload: Self.claims)).signature.count == 96)
        }
    }

    @Test("RS256 matches an independent implementation byte for byte")
    func rs256MatchesPythonCryptography() throws {
        // RSASSA-PKCS1-v1_5 is deterministic; this token was made by Python `cryptography` 50
        // with the same key, header {"alg":"RS256","kid":"k-1","typ":"JWT"} and payload
        // {"iss":"ci-robot"}.
        let expected = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImstMSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJjaS1yb2JvdCJ9.cQha4vDpYD1vwmisZ-Cao6CdqTu3awOgjNp42UNL8DjVvHTajT4d5JvRO78bU_BFzU1-C5m2PkVAJ6FFxDu9jNehzrG80ANv8yykSjy5YNMlWoX5hfzrGlBjMCHYue8BxTzME14ASwUwXjtVI5x-NdbLawKcDCr6zJMrzrct80PzS4MWvd5nQ6q04pxsQUkOy21I34YUvZqtNHebp1bq1nlMtTs0UuC16kWqGswrV-sO8dIFVGHSYM1kQKZjnHCVbh06l1TrclMlGzTjNY3CRr6RO4Q30MWRr9cak6p2DUObR34v13g4wdrfClXF6vytxzAHamSYQ4-I_AzMZMee8g"
        let signer = try JWSSigner(key: PrivateKey(pem: Array(SigningFixtures.rsaPKCS8PEM.utf8)), algorithm: .RS256, keyID: "k-1")
        #expect(try signer.sign(payload: Array(#"{"iss":"ci-robot"}"#.utf8)) == expected)
    }

    @Test("PS256 and ES256 are randomized: two signatures of the same input differ")
    func probabilisticSignaturesDiffer() throws {
        for (pem, alg) in [(SigningFixtures.rsaPKCS8PEM, JWSAlgorithm.PS256), (SigningFixtures.p256PKCS8PEM, .ES256)] {
            let signer = try JWSSigner(key: PrivateKey(pem: Array(pem.utf8)), algorithm: alg)
            #expect(try signer.sign(payload: Self.claims) != signer.sign(payload: Self.claims), "\(alg)")
        }
    }

    @Test("no typ header when none is asked for; no kid when none is set")
    func optionalHeaders() throws {
        let signer = try JWSSigner(key: PrivateKey(pem: Array(SigningFixtures.p256PKCS8PEM.utf8)))
        #expect(try CompactJWS(signer.sign(payload: Self.claims, type: nil)).header == JOSEHeader(alg: "ES256"))
    }

    @Test("the key's type picks the default algorithm")
    func defaultAlgorithms() throws {
        #expect(try PrivateKey(pem: Array(SigningFixtures.rsaTraditionalPEM.utf8)).defaultAlgorithm == .RS256)
        #expect(try PrivateKey(pem: Array(SigningFixtures.p256TraditionalPEM.utf8)).defaultAlgorithm == .ES256)
        #expect(try PrivateKey(pem: Array(SigningFixtures.p384PEM.utf8)).defaultAlgorithm == .ES384)
        #expect(try PrivateKey(pem: Array(SigningFixtures.rsaPKCS8PEM.utf8)).kind == .rsa(bits: 2048))
    }

    @Test("a key that does not fit the algorithm is refused before anything is signed")
    func mismatchedAlgorithm() throws {
        let rsa = try PrivateKey(pem: Array(SigningFixtures.rsaPKCS8PEM.utf8))
        let p256 = try PrivateKey(pem: Array(SigningFixtures.p256PKCS8PEM.utf8))
        let p384 = try PrivateKey(pem: Array(SigningFixtures.p384PEM.utf8))
        for (key, alg) in [(rsa, JWSAlgorithm.ES256), (p256, .RS256), (p256, .PS256), (p256, .ES384), (p384, .ES256)] {
            #expect(signerFailure(key, alg) == .invalidKey, "\(alg)")
        }
    }

    @Test("unusable PEM input is refused with invalidKey and a message that quotes none of it",
          arguments: [
              ("encrypted PKCS#8", SigningFixtures.p256EncryptedPEM, "encrypted"),
              ("encrypted traditional RSA", SigningFixtures.rsaTraditionalEncryptedPEM, "encrypted"),
              ("RSA-1024", SigningFixtures.rsa1024PEM, "2048"),
              ("secp256k1", SigningFixtures.secp256k1PEM, "P-256"),
              ("Ed25519", SigningFixtures.ed25519PEM, "neither RSA nor EC"),
              ("a public key", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEr1En7vb0oorRHvSOISpbz+Oe0TndB4CrlQFzPzKhzlXuYOiQVirhQu8Zv7YR9/6nZUpXLWjIiKLDrT94SG+ZHw==\n-----END PUBLIC KEY-----\n", "no PEM private key"),
              ("empty", "", "no PEM private key"),
              ("garbage", "hunter2\n", "no PEM private key"),
              ("truncated", String(SigningFixtures.rsaPKCS8PEM.prefix(400)), "no PEM private key"),
          ])
    func unusablePEM(_ name: String, _ pem: String, _ reason: String) {
        do {
            _ = try PrivateKey(pem: Array(pem.utf8))
            Issue.record("\(name) was accepted")
        } catch let error as CryptoError {
            #expect(error.code == .invalidKey)
            #expect(error.message.contains(reason), "\(error.message)")
            #expect(!error.message.contains("MII") && !error.message.contains("hunter2"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("an oversized file is refused without parsing")
    func oversizedPEM() {
        let huge = Array(repeating: UInt8(ascii: "A"), count: PrivateKey.maximumPEMSize + 1)
        #expect(throws: CryptoError.self) { _ = try PrivateKey(pem: huge) }
    }
}

private func signerFailure(_ key: PrivateKey, _ algorithm: JWSAlgorithm) -> CryptoError.Code? {
    do {
        _ = try JWSSigner(key: key, algorithm: algorithm)
        return nil
    } catch let error as CryptoError {
        return error.code
    } catch {
        return .library
    }
}
