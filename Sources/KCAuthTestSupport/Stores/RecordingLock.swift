import KCAuthCore

/// A lock that counts acquisitions and can play "another process refreshed meanwhile".
public final class RecordingLock: ProfileLock, @unchecked Sendable {
    public var acquisitions = 0
    public var whileWaiting: (() throws -> Void)?
    public init() {}
    public func withLock<T>(profile: String, timeout: Double, _ body: () throws -> T) throws -> T {
        acquisitions += 1
        try whileWaiting?()
        return try body()
    }
}
