import Foundation
import Testing
@_exported import KCAuthCore

/// A sleeper on a fake monotonic clock: `sleep` only moves the clock, and every sleep is recorded.
public final class FakeSleeper: Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var time: Double
    public private(set) var sleeps: [Double] = []

    public init(start: Double = 0) { time = start }

    public func monotonicNow() -> Double { lock.withLock { time } }
    public func sleep(_ seconds: Double) {
        lock.withLock {
            sleeps.append(seconds)
            time += seconds
        }
    }
    /// Time passing inside a call (a slow HTTP answer).
    public func advance(_ seconds: Double) { lock.withLock { time += seconds } }
    public var totalSlept: Double { lock.withLock { sleeps.reduce(0, +) } }
}
