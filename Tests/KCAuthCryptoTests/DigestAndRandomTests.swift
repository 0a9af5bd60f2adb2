import KCAuthCrypto
import Testing

@Suite("SHA-256, PKCE and SecureRandom")
struct DigestAndRandomTests {
    /// FIPS 180-2 Appendix B and the empty string.
    @Test("SHA-256 matches the FIPS 180-2 vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256KnownVectors(input: String, expectedHex: String) {
        #expect(hex(SHA256.hash(Array(input.utf8))) == expectedHex)
    }

    @Test("SHA-256 of one million 'a' (FIPS 180-2 B.3)")
    func sha256MillionA() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("PKCE S256 challenge matches RFC 7636 Appendix B")
    func pkceRFC7636AppendixB() {
        let challenge = PKCE.challenge(forVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("32 random bytes make a 43-character PKCE verifier (RFC 7636 §4.1)")
    func pkceVerifierFromRandomBytes() throws {
        let verifier = Base64URL.encode(try SecureRandom().bytes(32))
        #expect(verifier.utf8.count == 43)
        #expect(PKCE.challenge(forVerifier: verifier).utf8.count == 43)
    }

    @Test("SecureRandom returns exactly the requested number of bytes", arguments: [0, 1, 16, 32, 64, 1000])
    func secureRandomLength(count: Int) throws {
        #expect(try SecureRandom().bytes(count).count == count)
    }

    @Test("SecureRandom never repeats itself")
    func secureRandomDistinct() throws {
        let random = SecureRandom()
        let draws = try (0..<100).map { _ in try random.bytes(32) }
        #expect(Set(draws).count == draws.count)
        #expect(draws.allSatisfy { $0 != [UInt8](repeating: 0, count: 32) })
    }
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }.joined()
}
