/// What `doctor` and `whoami` show of a profile's platform assertion: where it comes from, the
/// audience it is asked for, and what a fresh one says of itself (`iss`, `sub`, `aud`, when it
/// expires), or why none could be had. Never the assertion: it is fetched, read and dropped.
public struct AssertionPreview: Sendable, Equatable {
    public var assertion: PlatformAssertion
    /// The audience asked of a source that takes one (the profile's, else the issuer); nil for
    /// `env:` and `file:`, which carry the platform's own.
    public var audience: String?
    /// What the fresh assertion says; nil when none could be had (`error`).
    public var claims: AssertionClaims?
    public var error: KCAuthError?

    /// Fetches one from `source` now (a platform request or a program run, as for a token request).
    public static func take(_ source: ClientAssertionSource) -> AssertionPreview {
        var preview = AssertionPreview(assertion: source.assertion, audience: source.assertion.takesAudience ? source.audience : nil)
        do {
            let fresh = try source.currentAssertion()
            preview.claims = AssertionClaims(unverified: fresh) ?? AssertionClaims(issuer: nil, subject: nil, audiences: [], expiresAt: nil)
        } catch {
            preview.error = KCAuthError.wrapping(error)
        }
        return preview
    }

    /// Where it comes from and the audience asked for: `github-actions, audience https://…`.
    public var sourceSummary: String {
        var shown = assertion
        shown.audience = audience
        return shown.description
    }
}
