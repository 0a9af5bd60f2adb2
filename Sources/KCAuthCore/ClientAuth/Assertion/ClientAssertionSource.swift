/// A client assertion signed by someone else — a Kubernetes projected service-account token, a
/// CI system's OIDC ID token — for providers that accept such federated assertions as
/// `private_key_jwt` client authentication (RFC 7521 §4.2, RFC 7523 §2.2).
///
/// Re-read on every token request: platforms rotate the file (Kubernetes refreshes projected
/// tokens at 80 % of their life), so a value read at start-up goes stale in long jobs.
///
/// The variable (`KCAUTH_CLIENT_ASSERTION`) is the CLI's to define and document.
public struct ClientAssertionSource: Sendable, CustomStringConvertible {
    /// Kubernetes service-account tokens are about 1 KiB; ID tokens with many claims a few KiB.
    public static let sizeLimit = 16 * 1024

    public let source: CredentialSource
    let reader: any CredentialReader

    public init(_ source: CredentialSource, reader: any CredentialReader) {
        self.source = source
        self.reader = reader
    }

    public var description: String { source.description }

    /// The current assertion. It must look like a compact JWS (three base64url parts, RFC 7515
    /// §7.1); its signature and claims are the provider's to judge.
    public func currentAssertion() throws -> Secret {
        let text = try source.read(using: reader, what: "the client assertion", limit: Self.sizeLimit)
            .trimmingWhitespace()
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let base64url = parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
            }
        }
        guard parts.count == 3, base64url else {
            throw KCAuthError(.configuration, "the client assertion in \(source) is not a signed JWT (header.payload.signature)")
        }
        return Secret(.clientAssertion, text)
    }
}
