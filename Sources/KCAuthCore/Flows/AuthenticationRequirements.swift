import FoundationEssentials

/// What the ID token must show about how the person signed in, when the request asked for it:
/// `max_age` makes `auth_time` required and bounded (OpenID Connect Core §3.1.2.1, §3.1.3.7
/// item 13), and an essential `acr` claim request makes `acr` required and one of the requested
/// values (§5.5.1.1, §3.1.3.7 item 12). A voluntary `acr_values` is a wish the provider may
/// not grant, so it is not checked.
public struct AuthenticationRequirements: Sendable, Equatable {
    public var maxAge: Int?
    /// The acceptable values of an essential `acr` request; nil: none asked for.
    public var essentialACR: [String]?

    public init(maxAge: Int? = nil, essentialACR: [String]? = nil) {
        self.maxAge = maxAge
        self.essentialACR = essentialACR
    }

    /// Throws `invalidIDToken` when the ID token does not show what was required. `leeway`
    /// tolerates clock skew between kcauth and the provider.
    public func check(_ claims: IDTokenClaims, now: Instant, leeway: Double = IDTokenValidator.leeway) throws {
        if let maxAge {
            guard let authTime = claims.authTime else {
                throw IDTokenValidator.invalid("max_age was requested but it has no auth_time")
            }
            let age = now.seconds(since: authTime)
            guard age <= Double(maxAge) + leeway else {
                var error = IDTokenValidator.invalid("the sign-in it describes is \(Int(age)) s old, more than max_age \(maxAge)")
                error.problem = .signInOlderThanMaxAge(age: Int(age), maxAge: maxAge)
                throw error
            }
        }
        if let essentialACR {
            guard let acr = claims.acr else {
                throw IDTokenValidator.invalid("an essential acr was requested but it has no acr")
            }
            guard essentialACR.isEmpty || essentialACR.contains(acr) else {
                throw IDTokenValidator.invalid("its acr '\(Sanitize.oneLine(acr, limit: 60))' is not one of the requested \(essentialACR.joined(separator: ", "))")
            }
        }
    }

    /// The values of `{"id_token": {"acr": {"essential": true, "values"|"value": …}}}` in a
    /// `claims` request parameter (OIDC Core §5.5); nil when it asks for no essential acr.
    static func essentialACR(inClaims raw: String?) -> [String]? {
        guard let raw, let acr = JSONValue.parse(Array(raw.utf8))?["id_token"]?["acr"],
              acr["essential"] == .bool(true) else { return nil }
        if let values = acr["values"]?.arrayValue { return values.compactMap(\.stringValue) }
        if let value = acr["value"]?.stringValue { return [value] }
        return []
    }
}

extension SessionFinisher.Context {
    /// This context, with what the ID token must show.
    public func requiring(_ requirements: AuthenticationRequirements) -> SessionFinisher.Context {
        var copy = self
        copy.requirements = requirements
        return copy
    }

    /// The context of a login that proves possession of `prover`'s key (RFC 9449).
    public func proving(_ prover: DPoPProver?, mode: DPoPMode) -> SessionFinisher.Context {
        var copy = self
        copy.dpop = prover
        copy.dpopMode = prover == nil ? .no : mode
        return copy
    }
}
