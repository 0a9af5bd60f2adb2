/// Which `token_type` (RFC 6749 §7.1) a token response may carry: `Bearer` (RFC 6750) always,
/// `DPoP` (RFC 9449 §5) only when kcauth sent a proof, so that it holds the key the token is
/// bound to. Anything else, and a DPoP token kcauth did not ask for, would be useless to the
/// scripts that call `kcauth token`.
enum TokenTypeRule {
    enum Binding: Equatable { case bearer, dpop }

    static func check(_ tokenType: String, proved: Bool) throws -> Binding {
        switch tokenType.lowercased() {
        case "bearer": return .bearer
        case "dpop" where proved: return .dpop
        case "dpop":
            throw KCAuthError(.invalidResponse, "the provider issued a DPoP-bound token although kcauth sent no DPoP proof",
                              remedy: .signInWithDPoP)
        default:
            throw KCAuthError(.invalidResponse, "the provider issued a '\(Sanitize.oneLine(tokenType, limit: 40))' token; kcauth supports Bearer and DPoP tokens only")
        }
    }
}
