import KCAuthCrypto
import Testing

@Suite("Base64URL (RFC 4648 §5, unpadded)")
struct Base64URLTests {
    /// RFC 4648 §10, with the padding JOSE omits (RFC 7515 §2).
    @Test("encodes the RFC 4648 §10 vectors without padding", arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"),
        ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("uses '-' and '_' where standard base64 uses '+' and '/'")
    func urlSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xEF, 0xBE]) == "----")
        #expect(Base64URL.encode([0xFF, 0xFF, 0xFF]) == "____")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test("round-trips every length from 0 to 300 bytes")
    func roundTrip() {
        for length in 0...300 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ length) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("="))
            #expect(Base64URL.decode(text) == bytes, "length \(length)")
        }
    }

    @Test("accepts correct trailing padding", arguments: [("Zg==", "f"), ("Zm8=", "fo"), ("Zm9v", "foo")])
    func acceptsPadding(encoded: String, plain: String) {
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("rejects anything that is not canonical base64url", arguments: [
        "Zm+v",       // standard-alphabet '+'
        "Zm/v",       // standard-alphabet '/'
        "Zm=v",       // '=' in the middle
        "Z=m9v",      // '=' in the middle
        "Zg=",        // wrong amount of padding
        "Zg===",      // too much padding
        "Z",          // a lone sextet cannot end a byte
        "Zm9vY",      // ditto, after a full group
        "Zh",         // non-zero unused bits (RFC 4648 §3.5)
        " Zm9v",      // whitespace
        "Zm 9v",
        "Zm9v!",
        "Zm9vé",      // non-ASCII
        "{\"alg\":\"RS256\"}",
    ])
    func rejectsInvalid(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
