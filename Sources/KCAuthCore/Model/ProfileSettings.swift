/// The non-secret settings of one profile, as kept in the configuration file.
public struct ProfileSettings: Sendable, Equatable {
    public var issuer: String?
    public var clientID: String?
    public var scope: String?
    public var port: UInt16?
    /// PEM file of extra CA certificates to trust for the provider (a private or corporate CA).
    public var caFile: String?

    public init(issuer: String? = nil, clientID: String? = nil, scope: String? = nil, port: UInt16? = nil, caFile: String? = nil) {
        self.issuer = issuer
        self.clientID = clientID
        self.scope = scope
        self.port = port
        self.caFile = caFile
    }

    public init(_ doc: ConfigDocument, profile: String, path: String) throws {
        issuer = doc.value("issuer", profile: profile)
        clientID = doc.value("client_id", profile: profile)
        scope = doc.value("scope", profile: profile)
        caFile = doc.value("ca_file", profile: profile)
        if let p = doc.value("port", profile: profile) {
            guard let n = UInt16(p) else {
                throw KCAuthError(.configuration, "\(path): profile [\(profile)]: port '\(Sanitize.oneLine(p))' is not a number from 0 to 65535")
            }
            port = n
        }
    }

    public func apply(to doc: inout ConfigDocument, profile: String) {
        doc.set("issuer", issuer, profile: profile)
        doc.set("client_id", clientID, profile: profile)
        doc.set("scope", scope, profile: profile)
        doc.set("port", port.map(String.init), profile: profile)
        doc.set("ca_file", caFile, profile: profile)
    }
}

/// Reads and writes the configuration file (`$XDG_CONFIG_HOME/kcauth/config`).
public protocol SettingsStore: Sendable {
    /// The file's path, for messages.
    var path: String { get }
    /// The parsed file; an empty document when it does not exist; `configuration` error when malformed.
    func load() throws -> ConfigDocument
    /// Writes atomically (temp file + rename), directory 0700, file 0600.
    func save(_ doc: ConfigDocument) throws
}
