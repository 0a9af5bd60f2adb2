import KCAuthContract
/// What git writes to a credential helper's stdin (git-credential(1), "INPUT/OUTPUT FORMAT"):
/// `key=value` lines up to a blank line or the end of input. Keys kcauth does not use are
/// ignored, as the protocol asks; `capability[]` may repeat.
public struct GitCredentialRequest: Sendable, Equatable {
    public var fields: [String: String] = [:]
    public var capabilities: Set<String> = []

    /// More input than git sends (its helper row's limit) is refused.
    public static let maxInput = CredentialHelper.Wire.git.inputLimit

    public init(fields: [String: String] = [:], capabilities: Set<String> = []) {
        self.fields = fields
        self.capabilities = capabilities
    }

    public init(parsing text: String) throws {
        guard text.utf8.count <= Self.maxInput else { throw KCAuthError(.usage, "git credential input is too long") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line.isEmpty { break }
            guard let eq = line.firstIndex(of: "=") else {
                throw KCAuthError(.usage, "git credential input line without '=': '\(Sanitize.oneLine(String(line), limit: 60))'")
            }
            let key = String(line[..<eq]), value = String(line[line.index(after: eq)...])
            if key == "capability[]" { capabilities.insert(value) } else { fields[key] = value }
        }
    }

    public var protocolName: String? { fields["protocol"] }
    public var host: CredentialHost? { fields["host"].flatMap(CredentialHost.init) }
    public var username: String? { fields["username"] }
    public var password: String? { fields["password"] }
    /// git ≥ 2.46 can take a ready `Authorization` scheme and credential instead of a password.
    public var acceptsAuthType: Bool { capabilities.contains("authtype") }

    /// A bearer token goes only over https, or over http to a numeric loopback address.
    public var isSafeTransport: Bool {
        guard let protocolName, let host else { return false }
        return CredentialTransport.allowsToken(scheme: protocolName, host: host.host)
    }
}
