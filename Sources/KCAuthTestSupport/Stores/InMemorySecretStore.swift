import Foundation
import Testing
@_exported import KCAuthCore

public final class InMemorySecretStore: SecretStore, @unchecked Sendable {
    private let lock = NSLock()
    public var items: [String: (SecretKey, String)] = [:]
    public var unavailable: KCAuthError?
    public let name: String
    /// Every write, in order (the secret text).
    public private(set) var writes: [String] = []
    /// How many times `read` was called (the warm `token` path must not read the store).
    public private(set) var reads = 0

    public init(name: String = "memory") { self.name = name }

    public func checkAvailable() throws { if let unavailable { throw unavailable } }
    public func read(profile: String) throws -> String? {
        try checkAvailable()
        return lock.withLock {
            reads += 1
            return items[profile]?.1
        }
    }
    public func write(_ secret: String, for key: SecretKey) throws {
        try checkAvailable()
        lock.withLock {
            items[key.profile] = (key, secret)
            writes.append(secret)
        }
    }
    public func delete(profile: String) throws -> Bool {
        try checkAvailable()
        return lock.withLock { items.removeValue(forKey: profile) != nil }
    }
}
