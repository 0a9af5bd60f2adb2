/// Wall-clock time, injectable so expiry logic is testable.
public protocol TimeSource: Sendable {
    /// Seconds since the Unix epoch (UTC).
    func now() -> Double
}
