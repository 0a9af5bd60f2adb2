import KCAuthCore

/// A store that always fails, counting reads.
public final class FailingStore: SecretStore, @unchecked Sendable {
    public let error: KCAuthError
    public private(set) var reads = 0
    public let name: String
    public init(error: KCAuthError, name: String = "keyring") {
        self.error = error
        self.name = name
    }
    public func checkAvailable() throws { throw error }
    public func read(profile: String) throws -> String? { reads += 1; throw error }
    public func write(_ secret: String, for key: SecretKey) throws { throw error }
    public func delete(profile: String) throws -> Bool { throw error }
}
