import KCAuthContract

/// A client assertion signed by someone else — a CI platform's ID token, a Kubernetes projected
/// service-account token, a SPIFFE JWT-SVID — for providers that accept such federated
/// assertions as client authentication (RFC 7521 §4.2, RFC 7523 §2.2; Keycloak's "Signed JWT -
/// Federated").
///
/// Fetched again for every token request: platforms issue short-lived assertions (GitHub's live
/// about five minutes, Kubernetes refreshes projected tokens at 80 % of their life), and
/// Keycloak refuses an assertion's `jti` the second time, so one read at start-up would fail
/// every job that outlives it.
public struct ClientAssertionSource: Sendable, CustomStringConvertible {
    /// Kubernetes service-account tokens are about 1 KiB; ID tokens with many claims a few KiB.
    public static let sizeLimit = 16 * 1024

    public let assertion: PlatformAssertion
    let ports: CredentialPorts
    /// The provider's issuer: the audience asked for when the profile names none.
    let issuer: String?

    public init(_ assertion: PlatformAssertion, ports: CredentialPorts, issuer: String?) {
        self.assertion = assertion
        self.ports = ports
        self.issuer = issuer
    }

    public var description: String { assertion.description }

    /// The `client_assertion_type` it is sent as.
    public var type: ClientAssertionType { assertion.type }

    /// The audience asked of a source that takes one: the profile's, else the provider's issuer
    /// (what Keycloak checks in a federated assertion's `aud`).
    public var audience: String? { assertion.audience ?? issuer }

    /// A new assertion from the source. It must look like a compact JWS (three base64url parts,
    /// RFC 7515 §7.1); its signature and claims are the provider's to judge.
    public func currentAssertion() throws -> Secret {
        let text: String
        switch assertion.source {
        case .githubActions:
            guard let audience else {
                throw KCAuthError(.configuration, "no audience to ask GitHub Actions for: the profile names no issuer")
            }
            text = try GitHubActionsIDToken(reader: ports.reader, transport: ports.platform()).fetch(audience: audience).reveal()
        case .environment(let name):
            text = try CredentialSource.environment(name).read(using: ports.reader, what: "the client assertion", limit: Self.sizeLimit)
        case .file(let path):
            text = try CredentialSource.file(path).read(using: ports.reader, what: "the client assertion", limit: Self.sizeLimit)
        case .command(let argv):
            text = try AssertionCommand(argv, runner: ports.commands()).run(audience: audience).reveal()
        }
        let trimmed = text.trimmingWhitespace()
        guard Self.looksLikeJWS(trimmed) else {
            if case .command(let argv) = assertion.source {
                throw KCAuthError(.configuration, "the client assertion command \(Sanitize.oneLine(argv.first ?? "", limit: 200)) "
                                  + "printed no signed JWT (header.payload.signature) on stdout")
            }
            throw KCAuthError(.configuration, "the client assertion in \(PlatformAssertion(assertion.source)) is not a signed JWT (header.payload.signature)")
        }
        return Secret(.clientAssertion, trimmed)
    }

    /// Three non-empty base64url parts separated by dots.
    static func looksLikeJWS(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
            }
        }
    }
}
