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

    /// What a file's parameters may cost at most, each limit on its own, checked before any
    /// derivation: a tampered header must not make kcauth allocate or compute without bound.
    /// Both are what the strongest parameters kcauth makes cost (N = 2^20, r = 8, p = 1).
    /// Memory: scrypt's V array is 128·r·N bytes (RFC 7914 §5), so 1 GiB.
    public static let maximumMemory: UInt64 = 1 << 30
    /// Work: N·r·p BlockMix rounds of 128·r bytes each (RFC 7914 §5–6), so 2^23; p multiplies
    /// the time, not the memory, of OpenSSL's sequential scrypt.
    public static let maximumWork: UInt64 = 1 << 23

    /// Why parameters are refused, as facts (the file's reader phrases them).
    public enum Refusal: Sendable, Equatable {
        /// N is not a power of two from 2 to 2^20, or r is not 1–32, or p not 1–16.
        case outOfRange
        /// 128·r·N bytes, more than ``maximumMemory``.
        case memory(bytes: UInt64)
        /// N·r·p, more than ``maximumWork``.
        case work(UInt64)
    }

    /// Why these parameters are refused; nil when they are within every limit.
    public var refusal: Refusal? {
        // The ranges first: they keep the products below from overflowing.
        guard n > 1, n & (n - 1) == 0, n <= 1 << 20, (1...32).contains(r), (1...16).contains(p) else { return .outOfRange }
        let memory = 128 * r * n
        if memory > Self.maximumMemory { return .memory(bytes: memory) }
        let work = n * r * p
        if work > Self.maximumWork { return .work(work) }
        return nil
    }

    public var isWithinLimits: Bool { refusal == nil }

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
