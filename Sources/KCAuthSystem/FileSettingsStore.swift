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
    /// Where refresh locks live: the per-user runtime directory, else the cache directory.
    public var lockDirectory: String

    public init(environment: [String: String]) {
        func absolute(_ name: String) -> String? { environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let home = environment["HOME"] ?? "/"
        configDirectory = (absolute("XDG_CONFIG_HOME") ?? home + "/.config") + "/kcauth"
        lockDirectory = (absolute("XDG_RUNTIME_DIR") ?? absolute("XDG_CACHE_HOME") ?? home + "/.cache") + "/kcauth"
    }

    public var configFile: String { configDirectory + "/config" }
}
