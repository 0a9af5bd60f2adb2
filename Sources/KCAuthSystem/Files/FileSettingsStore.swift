import KCAuthCore

/// The configuration file, `$XDG_CONFIG_HOME/kcauth/config` (default `~/.config/kcauth/config`).
/// `ConfigFile` does the careful file handling; `ConfigDocument` the parsing and the checks of
/// what may be written.
public struct FileSettingsStore: SettingsStore {
    public let path: String

    public init(path: String) { self.path = path }

    public func load() throws -> ConfigDocument {
        guard let text = try ConfigFile.read(path) else { return ConfigDocument() }
        return try ConfigDocument(parsing: text, path: path)
    }

    public func save(_ doc: ConfigDocument) throws {
        try ConfigFile.write(try doc.serialized(path: path), to: path)
    }
}
