/// The optional parameters of an authorization request that people ask for by name (issue 11
/// item 5): OpenID Connect Core §3.1.2.1 (`prompt`, `max_age`, `ui_locales`, `login_hint`,
/// `acr_values`), Keycloak's `kc_idp_hint` (straight to a brokered identity provider), and any
/// other parameter with `--param NAME=VALUE`.
public struct AuthorizationParameters: Sendable, Equatable {
    /// OIDC Core §3.1.2.1: the values a client may send in `prompt` (space-separated; `none`
    /// only alone).
    public static let promptValues = ["none", "login", "consent", "select_account"]

    /// Parameters kcauth sets itself: `--param` may not replace them, since each one carries a
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
    /// `--param NAME=VALUE`, in the order given.
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

    /// Only the one-off parameters (`prompt`, `login_hint`, `max_age`, `--param`): what makes a
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

    // MARK: Parsing what a person typed

    /// `prompt`: space-separated values from ``promptValues``; `none` only alone.
    public static func prompt(_ raw: String) throws -> String {
        let values = raw.split(separator: " ").map(String.init)
        guard !values.isEmpty, values.allSatisfy(promptValues.contains), Set(values).count == values.count,
              !(values.contains("none") && values.count > 1) else {
            throw KCAuthError(.usage, "--prompt takes login, consent, select_account or none (none only alone), not '\(Sanitize.oneLine(raw, limit: 60))'")
        }
        return values.joined(separator: " ")
    }

    /// `max_age`: whole seconds, 0 (sign in again now) to ten years.
    public static func maxAge(_ raw: String) throws -> Int {
        guard !raw.isEmpty, raw.count <= 9, raw.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(raw), n <= 315_360_000 else {
            throw KCAuthError(.usage, "--max-age takes a whole number of seconds from 0 to 315360000, not '\(Sanitize.oneLine(raw, limit: 20))'")
        }
        return n
    }

    /// `--param NAME=VALUE`: a non-empty name of URL-safe characters that kcauth does not set
    /// itself (its own options say what the reserved ones mean).
    public static func parameter(_ raw: String) throws -> Parameter {
        guard let eq = raw.firstIndex(of: "=") else {
            throw KCAuthError(.usage, "--param takes NAME=VALUE, not '\(Sanitize.oneLine(raw, limit: 60))'")
        }
        let name = String(raw[..<eq])
        let value = String(raw[raw.index(after: eq)...])
        guard !name.isEmpty, name.count <= 100, name.utf8.allSatisfy({ c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F || c == 0x2E
        }) else {
            throw KCAuthError(.usage, "--param: '\(Sanitize.oneLine(name, limit: 60))' is not a parameter name (letters, digits, '-', '_', '.')")
        }
        guard !reserved.contains(name) else {
            throw KCAuthError(.usage, "--param cannot set '\(name)': kcauth sets it itself",
                              hint: "use its own option where there is one (--prompt, --max-age, --idp-hint, --login-hint, --acr-values, --ui-locales)")
        }
        return Parameter(name: name, value: value)
    }
}
