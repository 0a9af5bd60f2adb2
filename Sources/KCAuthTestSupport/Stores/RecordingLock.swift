import KCAuthCore

/// A lock that counts acquisitions and can play "another process refreshed meanwhile".
public final class RecordingLock: ProfileLock, @unchecked Sendable {
    public var acquisitions = 0
    /// The sessions locked, in order.
    public var sessions: [SecretKey] = []
    public var whileWaiting: (() throws -> Void)?
    public init() {}
    public func withLock<T>(_ session: SecretKey, timeout: Double, _ body: () throws -> T) throws -> T {
        acquisitions += 1
        sessions.append(session)
        try whileWaiting?()
        return try body()
    }
}
