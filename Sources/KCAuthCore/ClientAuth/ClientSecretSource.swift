/// Where a confidential client's secret comes from: an environment variable
/// (`KCAUTH_CLIENT_SECRET`; the CLI defines and documents it) or a file such as a mounted
/// Kubernetes/Docker secret. Never argv: a command line is visible to every user of the machine.
public struct ClientSecretSource: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Far above any real secret (Keycloak's are 32 characters), small enough to refuse a wrong
    /// file at once.
    public static let sizeLimit = 4096

    public let source: CredentialSource

    public init(_ source: CredentialSource) {
        self.source = source
    }

    public var description: String { source.description }

    /// Reads the secret now. Throws `KCAuthError(.configuration)` naming the source, never the value.
    public func secret(using reader: any CredentialReader) throws -> ClientSecret {
        ClientSecret(try source.read(using: reader, what: "the client secret", limit: Self.sizeLimit))
    }
}
