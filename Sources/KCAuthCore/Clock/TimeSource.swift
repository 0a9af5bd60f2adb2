/// Wall-clock time, injectable so expiry logic is testable.
public protocol TimeSource: Sendable {
    /// Seconds since the Unix epoch (UTC).
    func now() -> Double
}

extension TimeSource {
    /// The clock's reading as an `Instant`.
    public var instant: Instant { Instant(clock: now()) }
}
