import KCAuthContract

/// A profile's platform assertion (federated client authentication, RFC 7521 §4.2): where it
/// comes from, the audience asked for, and what it is sent as. Never the assertion.
public struct PlatformAssertion: Sendable, Equatable, Codable, CustomStringConvertible {
    public var source: AssertionSource
    /// The `aud` asked of a source that takes one (`github-actions`, `command:`); nil: the
    /// provider's issuer, what Keycloak checks for a federated assertion.
    public var audience: String?
    public var type: ClientAssertionType

    public init(_ source: AssertionSource, audience: String? = nil, type: ClientAssertionType = .jwtBearer) {
        self.source = source
        self.audience = audience
        self.type = type
    }

    /// Whether the source is asked for an audience (the others come with the platform's own).
    public var takesAudience: Bool {
        switch source {
        case .githubActions, .command: true
        case .environment, .file: false
        }
    }

    /// For messages, `status` and `whoami`: `github-actions`, `$NAME`, `file PATH`,
    /// `command PROGRAM ARG...`, then the audience and a type other than the default.
    public var description: String {
        var text: String
        switch source {
        case .githubActions: text = AssertionSource.githubActionsWord
        case .environment(let name): text = "$\(name)"
        case .file(let path): text = "file \(path)"
        case .command(let words): text = "command " + Sanitize.oneLine(words.joined(separator: " "), limit: 200)
        }
        if let audience { text += ", audience \(Sanitize.oneLine(audience, limit: 200))" }
        if type != .jwtBearer { text += ", \(type.rawValue)" }
        return text
    }
}

extension ClientAssertionType {
    /// The `client_assertion_type` value: RFC 7523 §2.2's, or Keycloak's for a SPIFFE JWT-SVID.
    public var urn: String {
        switch self {
        case .jwtBearer: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        case .spiffe: "urn:ietf:params:oauth:client-assertion-type:jwt-spiffe"
        }
    }
}
