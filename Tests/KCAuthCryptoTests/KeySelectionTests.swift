import FoundationEssentials
import KCAuthCrypto
import Testing

@Suite("JWKS decoding and key selection (RFC 7517 §5)")
struct KeySelectionTests {
    static func decodeJWKS(_ json: String) throws -> JWKSet {
        try JSONDecoder().decode(JWKSet.self, from: Data(json.utf8))
    }

    static func kids(_ keys: [JWK]) -> [String?] { keys.map(\.kid) }

    @Test("decodes a Keycloak JWKS, ignoring x5c, x5t and other members")
    func decodesKeycloakJWKS() throws {
        let set = try Self.decodeJWKS(Fixtures.keycloakJWKS)
        #expect(set.keys == [
            Fixtures.rsaEnc,
            Fixtures.rsaA.with { $0.alg = "RS256" },
            Fixtures.p256.with { $0.alg = "ES256" },
        ])
    }

    @Test("skips entries that are not usable JWKs, keeps the rest (RFC 7517 §5)")
    func skipsInvalidEntries() throws {
        let set = try Self.decodeJWKS(#"""
        {"keys": [
            {"kid": "no-kty", "n": "AQAB", "e": "AQAB"},
            {"kty": "RSA", "kid": 7},
            42,
            "text",
            {"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},
            {"kty": "RSA", "kid": "ok", "n": "AQAB", "e": "AQAB"}
        ]}
        """#)
        #expect(Self.kids(set.keys) == [nil, "ok"])
        #expect(set.keys.first?.kty == "OKP")   // kept, but never a candidate
    }

    @Test("a document without a keys array is an error")
    func missingKeys() {
        #expect(throws: (any Error).self) { try Self.decodeJWKS(#"{"issuer": "https://kc.example"}"#) }
        #expect(throws: (any Error).self) { try Self.decodeJWKS(#"{"keys": {}}"#) }
    }

    @Test("picks the key named by the header's kid")
    func picksByKid() throws {
        let set = try Self.decodeJWKS(Fixtures.keycloakJWKS)
        #expect(Self.kids(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "RS256", kid: "rsa-a"), in: set)) == ["rsa-a"])
        #expect(Self.kids(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "ES256", kid: "ec-p256"), in: set)) == ["ec-p256"])
    }

    @Test("never offers the RSA-OAEP encryption key, even for a token without kid")
    func ignoresEncryptionKey() throws {
        let set = try Self.decodeJWKS(Fixtures.keycloakJWKS)
        #expect(Self.kids(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "RS256"), in: set)) == ["rsa-a"])
        #expect(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "RS256", kid: "rsa-enc"), in: set).isEmpty)

        let kidless = JWKSet(keys: [
            Fixtures.rsaEnc.with { $0.kid = nil; $0.alg = nil },   // only "use": "enc" gives it away
            Fixtures.rsaEnc.with { $0.kid = nil; $0.use = nil },   // only "alg": "RSA-OAEP" gives it away
            Fixtures.rsaA.with { $0.kid = nil; $0.use = nil },     // nothing excludes it
        ])
        #expect(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "RS256"), in: kidless) == [kidless.keys[2]])
    }

    @Test("returns nothing for an unknown kid, so the caller can refetch the JWKS")
    func unknownKid() throws {
        let set = try Self.decodeJWKS(Fixtures.keycloakJWKS)
        #expect(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "RS256", kid: "rotated-away"), in: set).isEmpty)
        #expect(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "RS256", kid: "RSA-A"), in: set).isEmpty)   // kid is case-sensitive
    }

    @Test("requires the key type, curve and alg to fit the header's alg")
    func familyMustFit() throws {
        let set = try Self.decodeJWKS(Fixtures.keycloakJWKS)
        #expect(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "ES256", kid: "rsa-a"), in: set).isEmpty)
        #expect(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "PS256", kid: "rsa-a"), in: set).isEmpty)   // key says RS256
        #expect(Self.kids(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "ES256"), in: set)) == ["ec-p256"])
        let curves = JWKSet(keys: [Fixtures.p256, Fixtures.p384, Fixtures.rsaA])
        #expect(Self.kids(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "ES384"), in: curves)) == ["ec-p384"])
        #expect(Self.kids(JWSVerifier.candidateKeys(for: JOSEHeader(alg: "PS256"), in: curves)) == ["rsa-a"])
    }

    @Test("offers no key at all for alg none or HMAC", arguments: ["none", "HS256", "RSA-OAEP"])
    func noKeysForUnsupported(alg: String) throws {
        let set = try Self.decodeJWKS(Fixtures.keycloakJWKS)
        #expect(JWSVerifier.candidateKeys(for: JOSEHeader(alg: alg), in: set).isEmpty)
    }

    @Test("end to end: the chosen key verifies the token", arguments: [Fixtures.rs256, Fixtures.es256])
    func selectThenVerify(token: String) throws {
        let jws = try CompactJWS(token)
        let candidates = JWSVerifier.candidateKeys(for: jws.header, in: try Self.decodeJWKS(Fixtures.keycloakJWKS))
        try #require(candidates.count == 1)
        try JWSVerifier.verify(jws, with: candidates[0])
    }
}
