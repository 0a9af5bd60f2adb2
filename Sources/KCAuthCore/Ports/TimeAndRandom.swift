/// Wall-clock time, injectable so expiry logic is testable.
public protocol TimeSource: Sendable {
    /// Seconds since the Unix epoch (UTC).
    func now() -> Double
}

/// Cryptographically secure random bytes (OpenSSL `RAND_bytes` in production).
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) throws -> [UInt8]
}
