/// Cryptographically secure random bytes (OpenSSL `RAND_bytes` in production).
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) throws -> [UInt8]
}
