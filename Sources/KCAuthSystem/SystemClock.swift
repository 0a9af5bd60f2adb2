import Glibc
import KCAuthCore

/// The real wall clock: `clock_gettime(CLOCK_REALTIME)`.
///
/// Token expiry (`exp`, `expires_in`) is wall-clock time (RFC 7519 §4.1.4), so this is
/// deliberately not the monotonic clock; deadlines inside adapters use CLOCK_MONOTONIC instead.
public struct SystemClock: TimeSource {
    public init() {}

    public func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
