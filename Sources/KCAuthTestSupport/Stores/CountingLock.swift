import Foundation
import Testing
@_exported import KCAuthCore

/// Runs the body at once and counts the acquisitions (the profiles; `sessions`: the keys).
public final class CountingLock: ProfileLock, @unchecked Sendable {
    public private(set) var acquisitions: [String] = []
    public private(set) var sessions: [SecretKey] = []
    public init() {}
    public func withLock<T>(_ session: SecretKey, timeout: Double, _ body: () throws -> T) throws -> T {
        acquisitions.append(session.profile)
        sessions.append(session)
        return try body()
    }
}
