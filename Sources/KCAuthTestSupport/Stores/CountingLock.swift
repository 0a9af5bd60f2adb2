import Foundation
import Testing
@_exported import KCAuthCore

/// Runs the body at once and counts the acquisitions.
public final class CountingLock: ProfileLock, @unchecked Sendable {
    public private(set) var acquisitions: [String] = []
    public init() {}
    public func withLock<T>(profile: String, timeout: Double, _ body: () throws -> T) throws -> T {
        acquisitions.append(profile)
        return try body()
    }
}
