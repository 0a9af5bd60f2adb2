import KCAuthCore

/// `doctor`'s check of a client that authenticates with a platform's assertion: one is fetched
/// as a token request would fetch it, and what it says of itself is shown and judged — an
/// expired one, or one whose `aud` is not the provider's issuer, is refused by Keycloak.
/// Never the assertion.
struct AssertionCheck {
    static let id = "client-assertion", title = "client assertion"

    static func run(_ preview: AssertionPreview, issuer: String?, now: Instant) -> DoctorCheck {
        guard let claims = preview.claims else {
            return .fail(id, title, preview.error ?? KCAuthError(.internal, "no assertion and no reason"))
        }
        let said = "\(preview.sourceSummary): \(claims.summary)"
        if let exp = claims.expiresAt, !(now < exp) {
            return DoctorCheck(id, title, .fail, "\(said); it expired \(RelativeTime.stamp(exp, now: now))",
                               fix: "the platform must keep it fresh: a file it rotates, a variable set for this job")
        }
        let expected = preview.assertion.audience ?? issuer
        if preview.assertion.audience == nil, let expected, !claims.audiences.contains(expected) {
            return DoctorCheck(id, title, .fail, "\(said); its aud is not the provider's issuer \(expected)",
                               fix: "ask the platform for a token with that audience (Keycloak accepts only its realm's issuer)")
        }
        let life = claims.expiresAt.map { "; expires \(RelativeTime.stamp($0, now: now))" } ?? ""
        return .pass(id, title, said + life)
    }
}
