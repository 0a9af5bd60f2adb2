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

/// Where kcauth keeps its files, following the XDG Base Directory specification.
public struct Paths: Sendable, Equatable {
    public var configDirectory: String

    public init(environment: [String: String]) {
        let home = environment["HOME"] ?? "/"
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        configDirectory = config + "/kcauth"
    }

    public var configFile: String { configDirectory + "/config" }
}
