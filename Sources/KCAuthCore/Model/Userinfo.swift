/// The userinfo request (OpenID Connect Core §5.3) with the access token as a bearer token
/// (RFC 6750 §2.1), or as a DPoP-bound one with a proof (RFC 9449 §7.1).
public struct Userinfo: Sendable {
    let http: OAuthHTTP

    public init(http: OAuthHTTP) { self.http = http }

    public func fetch(_ state: AuthState, expectedSubject: String?, profile: String) throws -> JSONValue {
        guard let url = state.endpoints.userinfo else {
            throw KCAuthError(.provider, "the provider publishes no userinfo endpoint", remedy: .askWithoutUserinfo)
        }
        let response = try http.sendPresenting(state.accessToken, tokenType: state.tokenType, method: .get, url: url,
                                               headers: [("Accept", "application/json")], claimsAnswer: true)
        switch response.status {
        case 200:
            break
        case 401, 403:
            // RFC 6750 §3.1: invalid_token means revoked, expired or unknown; the session is over.
            let why = response.header("www-authenticate").flatMap(Self.bearerError) ?? "HTTP \(response.status)"
            throw KCAuthError(.loginRequired, "the provider no longer accepts the session of profile '\(profile)' (userinfo: \(why))",
                              remedy: .signIn(profile: profile))
        default:
            throw KCAuthError(.network, "the userinfo endpoint at \(url) answered HTTP \(response.status)")
        }
        guard let claims = JSONValue.parse(response.body), claims.members != nil else {
            // Core §5.3.2 allows a signed or encrypted JWT; kcauth asks for JSON only.
            throw KCAuthError(.invalidResponse, "the userinfo endpoint at \(url) did not answer with a JSON object")
        }
        // Core §5.3.2: the sub of the userinfo answer MUST equal the ID token's, or the answer
        // must not be used (token substitution).
        if let expectedSubject, claims["sub"]?.stringValue != expectedSubject {
            throw KCAuthError(.invalidResponse, "the userinfo answer is for another subject than the ID token")
        }
        return claims
    }

    /// `error="invalid_token", error_description="…"` → `invalid_token (…)`.
    static func bearerError(_ header: String) -> String? {
        func parameter(_ name: String) -> String? {
            guard let start = header.firstRange(of: name + "=\"") else { return nil }
            let rest = header[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        guard let error = parameter("error") else { return nil }
        return OAuthErrorResponse(error: error, errorDescription: parameter("error_description")).summary
    }
}
