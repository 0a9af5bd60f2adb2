/// Where a confidential client's credentials are fetched at run time: variables and files
/// (``CredentialReader``), a CI platform's ID-token service (HTTP, the same transport and
/// deadlines as every other request), and a program a profile names (``AssertionCommandRunner``).
/// The last two are made when first used, so a secret or key never sets them up.
public struct CredentialPorts: Sendable {
    public let reader: any CredentialReader
    /// HTTP to the platform, trusting the system's CAs.
    public let platform: @Sendable () -> any HTTPTransport
    public let commands: @Sendable () -> any AssertionCommandRunner

    public init(reader: any CredentialReader, platform: @escaping @Sendable () -> any HTTPTransport,
                commands: @escaping @Sendable () -> any AssertionCommandRunner) {
        self.reader = reader
        self.platform = platform
        self.commands = commands
    }

    /// Variables and files only: a platform service or a program is an internal error (for
    /// callers that hold no platform source, such as a secret's tests).
    public init(reader: any CredentialReader) {
        self.init(reader: reader, platform: { NoPlatform() }, commands: { NoPlatform() })
    }

    private struct NoPlatform: HTTPTransport, AssertionCommandRunner {
        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            throw KCAuthError(.internal, "no HTTP for a platform's ID-token service here")
        }
        func run(_ argv: [String], environment: [String: String], seconds: Double, limit: Int) throws -> AssertionCommandOutcome {
            throw KCAuthError(.internal, "no programs are run here")
        }
    }
}
