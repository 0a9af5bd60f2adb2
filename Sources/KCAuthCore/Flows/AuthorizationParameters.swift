/// The optional parameters of an authorization request that people ask for by name:
/// OpenID Connect Core §3.1.2.1 (`prompt`, `max_age`, `ui_locales`, `login_hint`,
/// `acr_values`), Keycloak's `kc_idp_hint` (straight to a brokered identity provider), and any
/// any other parameter by name and value.
public struct AuthorizationParameters: Sendable, Equatable {
    /// OIDC Core §3.1.2.1: the values a client may send in `prompt` (space-separated; `none`
    /// only alone).
    public static let promptValues = ["none", "login", "consent", "select_account"]

    /// Parameters kcauth sets itself: an extra parameter may not replace them, since each one carries a
    /// guarantee of the flow (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core §3.1.2.1, RFC 9101
    /// `request`/`request_uri` would replace the whole request).
    public static let reserved = Set<String>([
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "response_mode", "request", "request_uri",
        "login_hint", "prompt", "max_age",
    ]).union(StickyParameter.allCases.map(\.requestName))

    /// The profile's remembered parameters (`kc_idp_hint`, `acr_values`, `ui_locales`: `StickyParameter`).
    public var sticky: [StickyParameter: String]
    public var loginHint: String?
    public var prompt: String?
    /// Seconds (OIDC Core §3.1.2.1); the ID token's `auth_time` is then checked.
    public var maxAge: Int?
    /// Other parameters by name and value, in the order given.
    public var extra: [Parameter]

    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(sticky: [StickyParameter: String] = [:], loginHint: String? = nil, prompt: String? = nil, maxAge: Int? = nil,
                extra: [Parameter] = []) {
        self.sticky = sticky
        self.loginHint = loginHint
        self.prompt = prompt
        self.maxAge = maxAge
        self.extra = extra
    }

    public var isEmpty: Bool { self == AuthorizationParameters() }

    /// Only the one-off parameters (`prompt`, `login_hint`, `max_age`, the extra ones): what makes a
    /// login more than "sign in with the saved settings".
    public var hasOneOffs: Bool { loginHint != nil || prompt != nil || maxAge != nil || !extra.isEmpty }

    /// The query fields, after kcauth's own: the leading sticky ones, the one-off ones, the other
    /// sticky ones, the extra ones.
    public var fields: [(String, String)] {
        func remembered(_ parameters: [StickyParameter]) -> [(String, String)] {
            parameters.compactMap { p in self.sticky[p].map { (p.requestName, $0) } }
        }
        var out = remembered(StickyParameter.leading)
        if let loginHint { out.append(("login_hint", loginHint)) }
        if let prompt { out.append(("prompt", prompt)) }
        if let maxAge { out.append(("max_age", String(maxAge))) }
        return out + remembered(StickyParameter.trailing) + extra.map { ($0.name, $0.value) }
    }

    /// What the ID token must show for this request (OIDC Core §3.1.2.1, §3.1.3.7 items 11–13).
    public var requirements: AuthenticationRequirements {
        AuthenticationRequirements(maxAge: maxAge, essentialACR: AuthenticationRequirements.essentialACR(
            inClaims: extra.last { $0.name == "claims" }?.value))
    }
}
