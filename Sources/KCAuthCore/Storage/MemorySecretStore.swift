import Synchronization

/// A store that keeps nothing beyond the process: a login's `memory` storage, for one-shot CI
/// jobs, where the token is printed once (`-o raw|json`) and nothing is left on the machine.
public final class MemorySecretStore: SecretStore {
    public let name = "memory"
    private let items = Mutex<[String: String]>([:])

    public init() {}

    public func checkAvailable() throws {}

    public func read(profile: String) throws -> String? {
        items.withLock { $0[profile] }
    }

    public func write(_ secret: String, for key: SecretKey) throws {
        items.withLock { $0[key.profile] = secret }
    }

    @discardableResult
    public func delete(profile: String) throws -> Bool {
        items.withLock { $0.removeValue(forKey: profile) != nil }
    }
}
