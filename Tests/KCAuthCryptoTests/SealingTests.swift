import KCAuthCrypto
import Testing

@Suite("AES-256-GCM and scrypt (the encrypted store)")
struct SealingTests {
    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            out.append(UInt8(s[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    /// GCM spec (McGrew & Viega) test case 14: zero key, zero nonce, one zero block.
    @Test("opens the GCM test case 14 vector")
    func gcmVector() {
        let sealed = [UInt8](repeating: 0, count: 12) + Self.hex("cea7403d4d606b6e074ec5d3baf39d18") + Self.hex("d0d1c8a799996bf0265b98b5d48ab919")
        #expect(AESGCM.open(sealed, key: [UInt8](repeating: 0, count: 32), aad: []) == [UInt8](repeating: 0, count: 16))
    }

    @Test("round-trips, and any changed byte, another key or other associated data fails")
    func roundTripAndTamper() throws {
        let key = try SecureRandom().bytes(32)
        let message = Array("{\"refresh_token\":\"r\"}".utf8)
        let sealed = try AESGCM.seal(message, key: key, aad: Array("header".utf8))
        #expect(sealed.count == 12 + message.count + 16)
        #expect(AESGCM.open(sealed, key: key, aad: Array("header".utf8)) == message)
        #expect(AESGCM.open(sealed, key: key, aad: Array("headex".utf8)) == nil)
        #expect(AESGCM.open(sealed, key: try SecureRandom().bytes(32), aad: Array("header".utf8)) == nil)
        for index in [0, 12, sealed.count - 1] {
            var flipped = sealed
            flipped[index] ^= 0x01
            #expect(AESGCM.open(flipped, key: key, aad: Array("header".utf8)) == nil)
        }
        #expect(AESGCM.open(Array(sealed.dropLast()), key: key, aad: Array("header".utf8)) == nil)
        let second = try AESGCM.seal(message, key: key, aad: [])
        #expect(second[..<12] != sealed[..<12], "a fresh nonce per message")
    }

    /// RFC 7914 §12, the second vector.
    @Test("derives the RFC 7914 vector")
    func scryptVector() throws {
        let key = try Scrypt(n: 1024, r: 8, p: 16).deriveKey(passphrase: Array("password".utf8), salt: Array("NaCl".utf8), length: 64)
        #expect(key == Self.hex("fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"))
    }

    @Test("refuses parameters a tampered header could use to exhaust memory")
    func limits() {
        #expect(Scrypt.standard.isWithinLimits)
        #expect(!Scrypt(n: 1 << 30, r: 8, p: 1).isWithinLimits)
        #expect(!Scrypt(n: 1000, r: 8, p: 1).isWithinLimits)
        // The strongest parameters kcauth makes are exactly at both limits.
        #expect(Scrypt(n: 1 << 20, r: 8, p: 1).refusal == nil)
        #expect(Scrypt(n: 1 << 20, r: 16, p: 1).refusal == .memory(bytes: 1 << 31))
        #expect(Scrypt(n: 1 << 19, r: 16, p: 1).refusal == nil)
        #expect(Scrypt(n: 1 << 20, r: 8, p: 2).refusal == .work(1 << 24))
        #expect(Scrypt(n: 1 << 16, r: 32, p: 16).refusal == .work(1 << 25))
        #expect(Scrypt(n: 1 << 20, r: 33, p: 1).refusal == .outOfRange)
        #expect(Scrypt(n: .max, r: .max, p: .max).refusal == .outOfRange, "no overflow")
        #expect(throws: CryptoError.self) { try Scrypt(n: 1 << 24, r: 8, p: 1).deriveKey(passphrase: [], salt: []) }
    }
}
