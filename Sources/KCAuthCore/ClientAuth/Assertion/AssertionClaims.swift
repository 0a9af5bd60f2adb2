/// What a platform's assertion says about itself, read without checking its signature (the
/// provider checks that): `iss`, `sub`, `aud` and `exp`, for `doctor`, `whoami` and the error
/// that says why the provider refused it. Never the assertion. Each value comes from a token
/// kcauth did not make, so each is one line, cut short.
public struct AssertionClaims: Sendable, Equatable {
    public var issuer: String?
    public var subject: String?
    /// RFC 7519 §4.1.3: one string or an array of them.
    public var audiences: [String]
    public var expiresAt: Instant?

    public init(issuer: String?, subject: String?, audiences: [String], expiresAt: Instant?) {
        self.issuer = issuer
        self.subject = subject
        self.audiences = audiences
        self.expiresAt = expiresAt
    }

    /// Nil when the assertion is not a JWS compact token with a JSON object as payload.
    public init?(unverified assertion: Secret) {
        guard let claims = IdentityClaims(unverifiedToken: assertion) else { return nil }
        func text(_ s: String?) -> String? { s.map { Sanitize.oneLine($0, limit: 200) } }
        issuer = text(claims.issuer)
        subject = text(claims.subject)
        switch claims.all["aud"] {
        case .string(let one)?: audiences = [Sanitize.oneLine(one, limit: 200)]
        case .array(let many)?: audiences = many.prefix(10).compactMap(\.stringValue).map { Sanitize.oneLine($0, limit: 200) }
        default: audiences = []
        }
        expiresAt = claims.expiresAt
    }

    /// `iss X, sub Y, aud Z` (a missing claim as `-`).
    public var summary: String {
        "iss \(issuer ?? "-"), sub \(subject ?? "-"), aud \(audiences.isEmpty ? "-" : audiences.joined(separator: " "))"
    }
}
