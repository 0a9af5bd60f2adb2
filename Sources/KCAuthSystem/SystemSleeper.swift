import Glibc
import KCAuthCore

/// Real waiting for the device flow's poll loop: CLOCK_MONOTONIC and `nanosleep`.
///
/// Monotonic, because a poll interval must not stretch or vanish when NTP or a suspend moves
/// the wall clock. A signal may cut a sleep short; the poll loop re-reads the clock anyway.
public struct SystemSleeper: Sleeper {
    public init() {}

    public func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }

    public func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
        _ = nanosleep(&request, nil)
    }
}
