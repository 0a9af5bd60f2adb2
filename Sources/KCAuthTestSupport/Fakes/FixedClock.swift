import Foundation
import Testing
@_exported import KCAuthCore

public struct FixedClock: TimeSource {
    public var time: Double
    public init(time: Double) { self.time = time }
    public func now() -> Double { time }
}
