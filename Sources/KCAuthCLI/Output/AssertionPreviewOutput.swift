import KCAuthCore

/// A fresh platform assertion as `whoami` and `doctor` show it: its source and audience, then
/// what it says of itself and how long it lives, or why none could be had. Never the assertion.
enum AssertionPreviewOutput {
    static func rows(_ p: AssertionPreview, now: Instant) -> [(String, String)] {
        [("Assertion from", p.sourceSummary), ("Assertion", detail(p, now: now))]
    }

    /// `iss X, sub Y, aud Z; valid until … (in 4m 59s)`, or `none: why; what to do`.
    static func detail(_ p: AssertionPreview, now: Instant) -> String {
        guard let claims = p.claims else {
            return "none: " + (p.error.map { "\(MessageWords.message($0)); \(ErrorPresenter.fix(for: $0))" } ?? "unknown")
        }
        return claims.summary + "; " + SessionOutput.expiry(claims.expiresAt, now: now, known: "no expiry in it")
    }

    static func json(_ p: AssertionPreview, now: Instant) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("from", .string(p.assertion.source.text)),
            ("audience", .string(p.audience)),
            ("type", .string(p.assertion.type.rawValue)),
            ("iss", .string(p.claims?.issuer)),
            ("sub", .string(p.claims?.subject)),
            ("aud", p.claims.map { .strings($0.audiences) } ?? .null),
        ]
        fields += SessionOutput.times("assertion", p.claims?.expiresAt, now: now).map { (String($0.0.dropFirst("assertion_".count)), $0.1) }
        fields.append(("error", .string(p.error.map(MessageWords.message))))
        return .fields(fields)
    }
}
