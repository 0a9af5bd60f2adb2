internal import COpenSSL

/// AES-256-GCM (RFC 5116 AEAD_AES_256_GCM) for the encrypted session store: a 32-byte key, a
/// fresh random 12-byte nonce per message, a 16-byte tag over the associated data and the
/// ciphertext. The associated data is how the store binds a file's header (version, KDF
/// parameters, profile) to its contents: change one byte of either and `open` fails.
public enum AESGCM {
    public static let keyLength = 32
    public static let nonceLength = 12
    public static let tagLength = 16

    /// `nonce || ciphertext || tag`, with a random nonce.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], aad: [UInt8]) throws -> [UInt8] {
        precondition(key.count == keyLength, "AESGCM: the key must be 32 bytes")
        let nonce = try SecureRandom().bytes(nonceLength)
        var out = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: tagLength)
        OpenSSLErrorQueue.clear()
        let ok = kc_aes256gcm_seal(key, nonce, aad, aad.count, plaintext, plaintext.count, &out, &tag)
        guard ok == 1 else { throw CryptoError.library("AES-256-GCM encryption failed") }
        return nonce + out + tag
    }

    /// The plaintext of `nonce || ciphertext || tag`, or nil when the tag does not verify
    /// (a wrong key, or any byte of the message or the associated data changed).
    public static func open(_ sealed: [UInt8], key: [UInt8], aad: [UInt8]) -> [UInt8]? {
        guard key.count == keyLength, sealed.count >= nonceLength + tagLength else { return nil }
        let nonce = Array(sealed[..<nonceLength])
        let body = Array(sealed[nonceLength..<(sealed.count - tagLength)])
        let tag = Array(sealed[(sealed.count - tagLength)...])
        var out = [UInt8](repeating: 0, count: body.count)
        OpenSSLErrorQueue.clear()
        guard kc_aes256gcm_open(key, nonce, aad, aad.count, body, body.count, tag, &out) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return out
    }
}
