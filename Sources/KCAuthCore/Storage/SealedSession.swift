import KCAuthCrypto

/// One profile's session in the encrypted store (`<profile>.sealed`): the JSON auth state sealed
/// with AES-256-GCM under the store's data key. The header names the store and the profile and is
/// the associated data, so a file copied to another profile, or from another store, is refused
/// even though it decrypts under the same key.
public enum SealedSession {
    static let magic = "kcauth-encrypted-session"

    public static func seal(_ secret: String, profile: String, storeID: String, dataKey: [UInt8]) throws -> String {
        let header = [("store", storeID), ("profile", profile)]
        let sealed = try AESGCM.seal(Array(secret.utf8), key: dataKey, aad: SealedText.aad(magic: magic, header: header))
        return SealedText(header: header, sealedField: "sealed", sealed: sealed).render(magic: magic)
    }

    /// Checks the header alone (no key needed): `doctor`, and the first step of `open`.
    public static func checkHeader(_ text: String, profile: String, storeID: String?) throws(SealedFileProblem) {
        _ = try parsed(text, profile: profile, storeID: storeID)
    }

    public static func open(_ text: String, profile: String, storeID: String, dataKey: [UInt8]) throws(SealedFileProblem) -> String {
        let file = try parsed(text, profile: profile, storeID: storeID)
        guard let plain = AESGCM.open(file.sealed, key: dataKey, aad: SealedText.aad(magic: magic, header: file.header)) else {
            throw .tampered
        }
        return String(decoding: plain, as: UTF8.self)
    }

    private static func parsed(_ text: String, profile: String, storeID: String?) throws(SealedFileProblem) -> SealedText {
        let file = try SealedText.parse(text, magic: magic, names: ["store", "profile"], sealedField: "sealed")
        guard file.value("profile") == profile else { throw .otherProfile(Sanitize.oneLine(file.value("profile"), limit: 64)) }
        if let storeID, file.value("store") != storeID { throw .otherStore }
        return file
    }
}
