internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`), for PKCE code
/// verifiers (RFC 7636 §4.1 asks for 32 random octets), `state` and `nonce`.
public struct SecureRandom: Sendable {
    public init() {}

    /// `count` random bytes. Throws ``CryptoError`` with code `.library` if the generator is
    /// not seeded or fails; never returns predictable bytes.
    public func bytes(_ count: Int) throws -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "SecureRandom.bytes: count out of range")
        guard count > 0 else { return [] }
        OpenSSLErrorQueue.clear()
        var output = [UInt8](repeating: 0, count: count)
        let rc = output.withUnsafeMutableBufferPointer { kc_RAND_bytes($0.baseAddress, Int32(count)) }
        guard rc == 1 else { throw CryptoError.library("RAND_bytes failed") }
        return output
    }
}
