import Synchronization
import KCAuthCore

/// The runtime token cache in memory; counts reads so a test can prove the hot path used it.
public final class MemoryTokenCache: TokenCache, Sendable {
    private let state = Mutex<(tokens: [String: CachedToken], reads: Int)>(([:], 0))

    public init() {}

    public var tokens: [String: CachedToken] {
        get { state.withLock { $0.tokens } }
        set { state.withLock { $0.tokens = newValue } }
    }
    public var reads: Int { state.withLock { $0.reads } }

    public func read(profile: String) -> CachedToken? { state.withLock { $0.reads += 1; return $0.tokens[profile] } }
    public func write(_ token: CachedToken, profile: String) { state.withLock { $0.tokens[profile] = token } }
    public func remove(profile: String) { state.withLock { $0.tokens[profile] = nil } }
}
