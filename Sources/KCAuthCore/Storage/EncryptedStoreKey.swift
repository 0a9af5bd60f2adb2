import KCAuthCrypto

/// The encrypted store's key file (`store.key`): the store's id, the scrypt parameters and salt,
/// and the random 32-byte data key sealed with AES-256-GCM under the key scrypt derives from the
/// passphrase. The header (version, id, KDF parameters) is the associated data, so a lowered
/// work factor or a swapped salt is detected, not silently used.
///
/// One data key for all profiles: `kcauth unlock` opens them all, and a passphrase change
/// (`kcauth passphrase`) rewrites this one file by rename, never the sessions.
public struct EncryptedStoreKey: Sendable {
    static let magic = "kcauth-encrypted-store"

    /// 32 hex digits, random: names the data key in the kernel keyring and in session headers.
    public let id: String
    public let kdf: Scrypt
    let salt: [UInt8]
    let wrapped: [UInt8]

    /// A new store: a random id and data key, the key wrapped under `passphrase`.
    public static func create(passphrase: [UInt8], kdf: Scrypt) throws -> (file: EncryptedStoreKey, dataKey: [UInt8]) {
        let random = SecureRandom()
        let id = try random.bytes(16).map { String($0, radix: 16).leftPadded(2) }.joined()
        let dataKey = try random.bytes(AESGCM.keyLength)
        return (try wrap(dataKey, id: id, passphrase: passphrase, kdf: kdf), dataKey)
    }

    /// The same data key under a new passphrase (and a new salt): `kcauth passphrase`.
    public func rewrapped(_ dataKey: [UInt8], passphrase: [UInt8], kdf: Scrypt) throws -> EncryptedStoreKey {
        try Self.wrap(dataKey, id: id, passphrase: passphrase, kdf: kdf)
    }

    static func wrap(_ dataKey: [UInt8], id: String, passphrase: [UInt8], kdf: Scrypt) throws -> EncryptedStoreKey {
        let salt = try SecureRandom().bytes(16)
        var kek = try kdf.deriveKey(passphrase: passphrase, salt: salt)
        defer { Scrypt.wipe(&kek) }
        let header = Self.header(id: id, kdf: kdf, salt: salt)
        let wrapped = try AESGCM.seal(dataKey, key: kek, aad: SealedText.aad(magic: magic, header: header))
        return EncryptedStoreKey(id: id, kdf: kdf, salt: salt, wrapped: wrapped)
    }

    /// The data key, or nil for a wrong passphrase (or a header changed since it was written:
    /// the two cannot be told apart, by design of the AEAD).
    public func unwrap(passphrase: [UInt8]) throws -> [UInt8]? {
        var kek = try kdf.deriveKey(passphrase: passphrase, salt: salt)
        defer { Scrypt.wipe(&kek) }
        return AESGCM.open(wrapped, key: kek, aad: SealedText.aad(magic: Self.magic, header: Self.header(id: id, kdf: kdf, salt: salt)))
    }

    static func header(id: String, kdf: Scrypt, salt: [UInt8]) -> [(String, String)] {
        [("id", id), ("kdf", "scrypt n=\(kdf.n) r=\(kdf.r) p=\(kdf.p) salt=\(Base64URL.encode(salt))")]
    }

    public func render() -> String {
        SealedText(header: Self.header(id: id, kdf: kdf, salt: salt), sealedField: "key", sealed: wrapped).render(magic: Self.magic)
    }

    public static func parse(_ text: String) throws(SealedFileProblem) -> EncryptedStoreKey {
        let parsed = try SealedText.parse(text, magic: magic, names: ["id", "kdf"], sealedField: "key")
        let id = parsed.value("id")
        guard id.utf8.count == 32, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            throw .malformed("the id is not 32 hex digits")
        }
        var fields: [String: String] = [:]
        let words = parsed.value("kdf").split(separator: " ")
        guard words.first == "scrypt" else { throw .malformed("the key derivation is not scrypt") }
        for word in words.dropFirst() {
            let pair = word.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw .malformed("a KDF parameter is not name=value") }
            fields[String(pair[0])] = String(pair[1])
        }
        guard let n = fields["n"].flatMap({ UInt64($0) }), let r = fields["r"].flatMap({ UInt64($0) }),
              let p = fields["p"].flatMap({ UInt64($0) }), let salt = fields["salt"].flatMap(Base64URL.decode),
              fields.count == 4, salt.count >= 16 else {
            throw .malformed("the scrypt parameters are incomplete")
        }
        let kdf = Scrypt(n: n, r: r, p: p)
        // Checked here, before the passphrase is even asked for: no derivation is started for
        // parameters beyond the limits.
        if let refusal = kdf.refusal { throw .costBeyondLimits(refusal) }
        guard parsed.sealed.count == AESGCM.nonceLength + AESGCM.keyLength + AESGCM.tagLength else {
            throw .malformed("the wrapped key has the wrong length")
        }
        return EncryptedStoreKey(id: id, kdf: kdf, salt: salt, wrapped: parsed.sealed)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
