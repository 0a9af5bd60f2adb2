internal import COpenSSL

/// scrypt (RFC 7914) through OpenSSL: the key that wraps the encrypted store's data key is
/// derived from the passphrase with it. The cost parameters travel with the file, so a store
/// made on a fast machine still opens on a slow one, and stronger parameters can come later.
public struct Scrypt: Sendable, Equatable {
    /// CPU/memory cost, a power of two greater than 1.
    public var n: UInt64
    public var r: UInt64
    public var p: UInt64

    public init(n: UInt64, r: UInt64, p: UInt64) {
        self.n = n
        self.r = r
        self.p = p
    }

    /// A reference point: 2^17 × 8 × 128 bytes = 128 MiB, about 0.4 s on the (loaded) 2-core
    /// development machine. New stores do not use it: their N is tuned on the machine that
    /// creates them (`EncryptedSecretStore.tunedKDF`, ~0.3 s).
    public static let standard = Scrypt(n: 1 << 17, r: 8, p: 1)

    /// The most a file may ask for: 2^20 × 8 (1 GiB, seconds of work). A file asking for more is
    /// refused instead of letting a tampered header make kcauth allocate without bound.
    public var isWithinLimits: Bool {
        n > 1 && n & (n - 1) == 0 && n <= 1 << 20 && r >= 1 && r <= 32 && p >= 1 && p <= 16
            && n * r * 128 * p <= 1 << 31
    }

    /// Memory OpenSSL may use: what N and r need, plus slack.
    var maxMemory: UInt64 { 128 * r * (n + p + 2) + (1 << 20) }

    public func deriveKey(passphrase: [UInt8], salt: [UInt8], length: Int = 32) throws -> [UInt8] {
        guard isWithinLimits else { throw CryptoError.invalidKey("scrypt parameters out of range") }
        var key = [UInt8](repeating: 0, count: length)
        OpenSSLErrorQueue.clear()
        let ok = passphrase.withUnsafeBufferPointer { pass in
            pass.withMemoryRebound(to: CChar.self) { chars in
                kc_scrypt(chars.baseAddress, chars.count, salt, salt.count, n, r, p, maxMemory, &key, length)
            }
        }
        guard ok == 1 else { throw CryptoError.library("scrypt failed") }
        return key
    }

    /// Overwrites `bytes` with zeros (OPENSSL_cleanse): for passphrases and keys once used.
    public static func wipe(_ bytes: inout [UInt8]) {
        let count = bytes.count
        bytes.withUnsafeMutableBytes { kc_cleanse($0.baseAddress, count) }
    }
}

extension Scrypt {
    /// `wipe` under a name that reads well at call sites that are not about keys.
    public static func wipeBytes(_ bytes: inout [UInt8]) { wipe(&bytes) }
}
