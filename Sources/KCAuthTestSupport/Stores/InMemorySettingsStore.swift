import Synchronization
import KCAuthCore

/// The configuration file in memory: counts loads (the hot path must read it once), and can be
/// made to fail on save (a login that fails after the secret was stored).
public final class InMemorySettingsStore: SettingsStore, Sendable {
    private let state: Mutex<(text: String, loads: Int, saveError: KCAuthError?)>
    public let path: String

    public init(_ text: String = "", path: String = "/fake/config/kcauth/config") {
        state = Mutex((text, 0, nil))
        self.path = path
    }

    public var text: String { state.withLock { $0.text } }
    public var loads: Int { state.withLock { $0.loads } }
    public func failSaves(with error: KCAuthError?) { state.withLock { $0.saveError = error } }

    public func load() throws -> ConfigDocument {
        let text = state.withLock { $0.loads += 1; return $0.text }
        return try ConfigDocument(parsing: text, path: path)
    }

    public func save(_ doc: ConfigDocument) throws {
        try state.withLock {
            if let error = $0.saveError { throw error }
            $0.text = doc.text
        }
    }
}
