/// Reads and writes the configuration file (`$XDG_CONFIG_HOME/kcauth/config`).
public protocol SettingsStore: Sendable {
    /// The file's path, for messages.
    var path: String { get }
    /// The parsed file; an empty document when it does not exist; `configuration` error when malformed.
    func load() throws -> ConfigDocument
    /// Writes atomically (temp file + rename), directory 0700, file 0600.
    func save(_ doc: ConfigDocument) throws
}
