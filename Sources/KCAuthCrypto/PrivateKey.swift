internal import COpenSSL

/// A private signing key loaded from PEM, for client assertions (RFC 7523 §2.2,
/// OpenID Connect Core §9 `private_key_jwt`). Freed when released.
///
/// Immutable after `init`; OpenSSL 3 allows one `EVP_PKEY` to sign from several threads, hence
/// `@unchecked Sendable`. The key's bytes never leave this object, and no error message quotes
/// the PEM text.
public final class PrivateKey: @unchecked Sendable {
    /// What the key is, as far as JWS algorithms care.
    public enum Kind: Sendable, Equatable {
        /// An RSA key of this many bits (RS* and PS* algorithms).
        case rsa(bits: Int)
        /// An EC key on P-256 (ES256) or P-384 (ES384).
        case ecP256
        case ecP384
    }

    /// Larger than any sensible key file (an RSA-8192 PKCS#8 PEM is about 6.5 KiB).
    public static let maximumPEMSize = 64 * 1024

    public let kind: Kind
    let pkey: OpaquePointer

    /// Loads the first private key in `pem`: PKCS#8 (`BEGIN PRIVATE KEY`) or the traditional
    /// `BEGIN RSA PRIVATE KEY` / `BEGIN EC PRIVATE KEY` forms.
    ///
    /// Throws ``CryptoError`` `.invalidKey` for an encrypted key (kcauth never asks for a
    /// passphrase: it runs unattended), for text with no private key, for a key type other than
    /// RSA or EC, for RSA under 2048 bits (RFC 7518 §3.3) and for EC curves other than P-256/P-384.
    public init(pem: [UInt8]) throws {
        guard pem.count <= Self.maximumPEMSize else {
            throw CryptoError.invalidKey("the key file is larger than \(Self.maximumPEMSize / 1024) KiB; it is not a PEM private key")
        }
        let text = String(decoding: pem, as: UTF8.self)
        // RFC 7468 §11 (PKCS#8 EncryptedPrivateKeyInfo) and OpenSSL's traditional encrypted form.
        if text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED") {
            throw CryptoError.invalidKey("the private key is encrypted; kcauth needs an unencrypted key (e.g. `openssl pkey -in KEY -out KEY.plain`), kept in a file only you can read")
        }
        OpenSSLErrorQueue.clear()
        let loaded = pem.withUnsafeBufferPointer { kc_private_key_from_pem($0.baseAddress, $0.count) }
        guard let loaded else {
            OpenSSLErrorQueue.clear()   // the queue names PEM internals, not the user's mistake
            throw CryptoError.invalidKey("the file holds no PEM private key (expected BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY)")
        }
        // Every check that may throw happens before `pkey` is set (a throwing init after full
        // initialization would run deinit and free it twice).
        let kind: Kind
        if kc_EVP_PKEY_is_a(loaded, "RSA") == 1 {
            let bits = Int(kc_EVP_PKEY_get_bits(loaded))
            guard bits >= Int(PublicKey.minimumRSABits) else {
                kc_EVP_PKEY_free(loaded)
                throw CryptoError.invalidKey("the RSA key has \(bits) bits; RFC 7518 §3.3 requires at least \(PublicKey.minimumRSABits)")
            }
            kind = .rsa(bits: bits)
        } else if kc_EVP_PKEY_is_a(loaded, "EC") == 1 {
            switch kc_ec_curve_bits(loaded) {
            case 256: kind = .ecP256
            case 384: kind = .ecP384
            default:
                kc_EVP_PKEY_free(loaded)
                throw CryptoError.invalidKey("the EC key is not on P-256 or P-384, the curves of ES256 and ES384")
            }
        } else {
            kc_EVP_PKEY_free(loaded)
            throw CryptoError.invalidKey("the private key is neither RSA nor EC; JWS client assertions need one of them")
        }
        self.kind = kind
        self.pkey = loaded
    }

    /// Takes ownership of `pkey` (a key this module made or checked).
    init(owning pkey: OpaquePointer, kind: Kind) {
        self.kind = kind
        self.pkey = pkey
    }

    deinit {
        kc_EVP_PKEY_free(pkey)
    }

    /// The algorithm to use when none is configured: RS256 for RSA (the one every provider
    /// accepts), ES256 for P-256, ES384 for P-384.
    public var defaultAlgorithm: JWSAlgorithm {
        switch kind {
        case .rsa: .RS256
        case .ecP256: .ES256
        case .ecP384: .ES384
        }
    }

    /// Whether this key can sign with `algorithm` (RS*/PS* need RSA, ES256 P-256, ES384 P-384).
    public func fits(_ algorithm: JWSAlgorithm) -> Bool {
        switch (algorithm.family, kind) {
        case (.rsaPKCS1, .rsa), (.rsaPSS, .rsa): true
        case (.ecdsa(.p256), .ecP256), (.ecdsa(.p384), .ecP384): true
        default: false
        }
    }
}
