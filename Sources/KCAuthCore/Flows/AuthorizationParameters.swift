/// The optional parameters of an authorization request that people ask for by name (issue 11
/// item 5): OpenID Connect Core §3.1.2.1 (`prompt`, `max_age`, `ui_locales`, `login_hint`,
/// `acr_values`), Keycloak's `kc_idp_hint` (straight to a brokered identity provider), and any
/// any other parameter by name and value.
public struct AuthorizationParameters: Sendable, Equatable {
    /// OIDC Core §3.1.2.1: the values a client may send in `prompt` (space-separated; `none`
    /// only alone).
    public static let promptValues = ["none", "login", "consent", "select_account"]

    /// Parameters kcauth sets itself: an extra parameter may not replace them, since each one carries a
    /// guarantee of the flow (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core §3.1.2.1, RFC 9101
    /// `request`/`request_uri` would replace the whole request).
    public static let reserved: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "response_mode", "request", "request_uri",
        "kc_idp_hint", "login_hint", "prompt", "max_age", "acr_values", "ui_locales",
    ]

    public var idpHint: String?
    public var loginHint: String?
    public var prompt: String?
    /// Seconds (OIDC Core §3.1.2.1); the ID token's `auth_time` is then checked.
    public var maxAge: Int?
    public var acrValues: String?
    public var uiLocales: String?
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

    public init(idpHint: String? = nil, loginHint: String? = nil, prompt: String? = nil, maxAge: Int? = nil,
                acrValues: String? = nil, uiLocales: String? = nil, extra: [Parameter] = []) {
        self.idpHint = idpHint
        self.loginHint = loginHint
        self.prompt = prompt
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.uiLocales = uiLocales
        self.extra = extra
    }

    public var isEmpty: Bool { self == AuthorizationParameters() }

    /// Only the one-off parameters (`prompt`, `login_hint`, `max_age`, the extra ones): what makes a
    /// login more than "sign in with the saved settings".
    public var hasOneOffs: Bool { loginHint != nil || prompt != nil || maxAge != nil || !extra.isEmpty }

    /// The query fields, after kcauth's own.
    public var fields: [(String, String)] {
        var out: [(String, String)] = []
        if let idpHint { out.append(("kc_idp_hint", idpHint)) }
        if let loginHint { out.append(("login_hint", loginHint)) }
        if let prompt { out.append(("prompt", prompt)) }
        if let maxAge { out.append(("max_age", String(maxAge))) }
        if let acrValues { out.append(("acr_values", acrValues)) }
        if let uiLocales { out.append(("ui_locales", uiLocales)) }
        return out + extra.map { ($0.name, $0.value) }
    }

    /// What the ID token must show for this request (OIDC Core §3.1.2.1, §3.1.3.7 items 11–13).
    public var requirements: AuthenticationRequirements {
        AuthenticationRequirements(maxAge: maxAge, essentialACR: AuthenticationRequirements.essentialACR(
            inClaims: extra.last { $0.name == "claims" }?.value))
    }
}
