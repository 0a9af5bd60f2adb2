import KCAuthCrypto
import Testing

/// The DPoP key (RFC 9449 §4.1): made here, kept as PKCS#8 PEM, read back as the same key, and
/// named by its RFC 7638 thumbprint.
@Suite struct KeyGenerationTests {
    @Test(arguments: [JWSAlgorithm.ES256, .PS256])
    func aGeneratedKeySurvivesItsPEMAndKeepsItsThumbprint(_ algorithm: JWSAlgorithm) throws {
        let key = try PrivateKey.generate(for: algorithm)
        let jwk = try key.publicJWK()
        let again = try PrivateKey(pem: try key.pkcs8PEM())
        #expect(try again.publicJWK() == jwk)
        #expect(jwk.thumbprint != nil && jwk.thumbprint?.count == 43)
        #expect(key.fits(algorithm))
        if algorithm == .ES256 {
            #expect(jwk.kty == "EC" && jwk.crv == "P-256" && jwk.x?.count == 43 && jwk.y?.count == 43)
        } else {
            #expect(jwk.kty == "RSA" && jwk.e == "AQAB")
        }
    }

    @Test func theThumbprintHashesTheRequiredMembersInOrder() {
        // RFC 7638 §3.2: {"crv","kty","x","y"} without whitespace, base64url(SHA-256).
        let jwk = JWK(kty: "EC", kid: "ignored", use: "sig", crv: "P-256", x: "AAAA", y: "BBBB")
        let expected = Base64URL.encode(SHA256.hash(Array(#"{"crv":"P-256","kty":"EC","x":"AAAA","y":"BBBB"}"#.utf8)))
        #expect(jwk.thumbprint == expected)
        #expect(JWK(kty: "oct").thumbprint == nil)
    }
}
