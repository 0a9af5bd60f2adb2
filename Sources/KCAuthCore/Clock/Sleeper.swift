/// Waiting, for the device flow's poll loop (RFC 8628 §3.4–3.5). Injectable so the loop's
/// timing — `interval`, `slow_down`, `expires_in` — is unit-tested without real sleeps.
///
/// It carries its own clock because intervals are measured on a clock that never jumps
/// (CLOCK_MONOTONIC), unlike `TimeSource`, which is the wall clock tokens expire by.
public protocol Sleeper: Sendable {
    /// Seconds on a monotonic clock; only differences mean anything.
    func monotonicNow() -> Double
    /// Blocks the calling thread for `seconds` (a signal may end it early; callers re-check the clock).
    func sleep(_ seconds: Double)
}
