import KCAuthCore
import KCAuthCrypto
import Testing

@Suite("The encrypted store's files")
struct SealedSessionTests {
    /// Cheap parameters: the format, not the work factor, is under test.
    static let kdf = Scrypt(n: 1 << 10, r: 8, p: 1)

    @Test("a key file round-trips, opens with its passphrase only, and binds its header")
    func keyFile() throws {
        let (file, dataKey) = try EncryptedStoreKey.create(passphrase: Array("pw".utf8), kdf: Self.kdf)
        let text = file.render()
        #expect(text.hasPrefix("kcauth-encrypted-store 1\nid \(file.id)\nkdf scrypt n=1024 r=8 p=1 salt="))
        let parsed = try EncryptedStoreKey.parse(text)
        #expect(try parsed.unwrap(passphrase: Array("pw".utf8)) == dataKey)
        #expect(try parsed.unwrap(passphrase: Array("pW".utf8)) == nil)
        let weaker = try EncryptedStoreKey.parse(text.replacingOccurrences(of: " r=8 ", with: " r=4 "))
        #expect(try weaker.unwrap(passphrase: Array("pw".utf8)) == nil, "a changed header fails like a wrong passphrase")
        let rewrapped = try parsed.rewrapped(dataKey, passphrase: Array("new".utf8), kdf: Self.kdf)
        #expect(rewrapped.id == file.id)
        #expect(try EncryptedStoreKey.parse(rewrapped.render()).unwrap(passphrase: Array("new".utf8)) == dataKey)
    }

    @Test("a key file asking for too much memory, of another version, or cut short is refused")
    func badKeyFiles() throws {
        let text = try EncryptedStoreKey.create(passphrase: Array("pw".utf8), kdf: Self.kdf).file.render()
        #expect(throws: SealedFileProblem.costBeyondLimits(.outOfRange)) {
            try EncryptedStoreKey.parse(text.replacingOccurrences(of: "n=1024", with: "n=1073741824"))
        }
        // 2 GiB of memory (N = 2^20, r = 16), and twice the work kcauth allows at 1 GiB (p = 2):
        // each limit on its own, at parse time, before any derivation.
        #expect(throws: SealedFileProblem.costBeyondLimits(.memory(bytes: 1 << 31))) {
            try EncryptedStoreKey.parse(text.replacingOccurrences(of: "n=1024 r=8", with: "n=1048576 r=16"))
        }
        #expect(throws: SealedFileProblem.costBeyondLimits(.work(1 << 24))) {
            try EncryptedStoreKey.parse(text.replacingOccurrences(of: "n=1024 r=8 p=1", with: "n=1048576 r=8 p=2"))
        }
        #expect(try EncryptedStoreKey.parse(text.replacingOccurrences(of: "n=1024 r=8 p=1", with: "n=524288 r=8 p=2")).kdf.n == 1 << 19)
        #expect(throws: SealedFileProblem.unknownVersion("2")) {
            try EncryptedStoreKey.parse(text.replacingOccurrences(of: "kcauth-encrypted-store 1", with: "kcauth-encrypted-store 2"))
        }
        #expect(throws: SealedFileProblem.self) { try EncryptedStoreKey.parse(String(text.prefix(text.count / 2))) }
    }

    @Test("a session opens for its profile and store only, and any changed byte is detected")
    func session() throws {
        let key = try SecureRandom().bytes(32)
        let store = String(repeating: "ab", count: 16)
        let text = try SealedSession.seal("{\"refresh_token\":\"secret\"}", profile: "work", storeID: store, dataKey: key)
        #expect(!text.contains("secret"))
        #expect(try SealedSession.open(text, profile: "work", storeID: store, dataKey: key) == "{\"refresh_token\":\"secret\"}")
        #expect(throws: SealedFileProblem.otherProfile("work")) { try SealedSession.open(text, profile: "default", storeID: store, dataKey: key) }
        #expect(throws: SealedFileProblem.otherStore) {
            try SealedSession.open(text, profile: "work", storeID: String(repeating: "cd", count: 16), dataKey: key)
        }
        var bytes = Array(text.utf8)
        bytes[bytes.count - 5] = bytes[bytes.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: SealedFileProblem.tampered) {
            try SealedSession.open(String(decoding: bytes, as: UTF8.self), profile: "work", storeID: store, dataKey: key)
        }
        let forged = text.replacingOccurrences(of: "profile work", with: "profile wori")
        #expect(throws: SealedFileProblem.tampered) { try SealedSession.open(forged, profile: "wori", storeID: store, dataKey: key) }
    }
}
