import KCAuthCore

/// The configuration file, `$XDG_CONFIG_HOME/kcauth/config` (default `~/.config/kcauth/config`).
public struct FileSettingsStore: SettingsStore {
    public let path: String

    public init(path: String) { self.path = path }

    public func load() throws -> ConfigDocument {
        guard let text = try AtomicFile.read(path) else { return ConfigDocument() }
        return try ConfigDocument(parsing: text, path: path)
    }

    public func save(_ doc: ConfigDocument) throws {
        try AtomicFile.write(doc.text, to: path)
    }
}
