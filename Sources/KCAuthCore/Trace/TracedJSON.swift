import KCAuthCrypto

/// A JSON answer as the trace shows it: by an allow-list. Numbers, booleans and nulls are shown;
/// a string is shown only under a name known to hold nothing secret (`token_type`, `expires_in`,
/// `scope`, `error`, …); every other string is a ``Secret`` named after its field, so a token
/// field kcauth has never heard of is redacted too. An ID token is shown redacted with its
/// claims, decoded (they may be shown; its `nonce` is not).
enum TracedJSON {
    /// Names whose string values are shown (RFC 6749 §5.1, §5.2; RFC 8628 §3.2, §3.5; RFC 9126
    /// §2.2; RFC 7662; Keycloak's `refresh_expires_in`, `not-before-policy`).
    static let shownNames: Set<String> = [
        "token_type", "expires_in", "refresh_expires_in", "scope", "error", "error_description", "error_uri",
        "interval", "not-before-policy", "request_uri", "verification_uri", "issued_token_type", "active",
    ]

    /// The kinds of the fields kcauth knows to be secrets; any other hidden field is a `value`.
    static let kinds: [String: SecretKind] = [
        "access_token": .accessToken, "refresh_token": .refreshToken, "id_token": .idToken, "device_code": .deviceCode,
        "user_code": .userCode, "code": .authorizationCode, "state": .state, "nonce": .nonce,
        "client_secret": .clientSecret, "client_assertion": .clientAssertion,
    ]

    static func value(_ json: JSONValue, name: String? = nil, whole: Bool = false) -> TraceValue {
        switch json {
        case .null: return .text("null")
        case .bool(let b): return .flag(b)
        case .number(let n): return .number(n)
        case .string(let s):
            if whole || name.map(shownNames.contains) == true { return .text(s) }
            return secret(Secret(name.flatMap { kinds[$0] } ?? .value, s))
        case .array(let items):
            return .list(items.map { value($0, name: name, whole: whole) })
        case .object(let members):
            return .fields(members.map { TraceField($0.key, value($0.value, name: $0.key, whole: whole)) })
        }
    }

    /// A secret, with what may be shown of it: an ID token's claims (OpenID Connect Core §2, but
    /// not its `nonce`), a client assertion's `iss`, `sub`, `aud` and `exp` (RFC 7523 §3).
    static func secret(_ secret: Secret) -> TraceValue {
        let shown: ((String) -> Bool)?
        switch secret.kind {
        case .idToken: shown = { $0 != "nonce" }
        case .clientAssertion: shown = { ["iss", "sub", "aud", "exp"].contains($0) }
        default: shown = nil
        }
        guard let shown, let jws = try? CompactJWS(secret.reveal()), let claims = JSONValue.parse(jws.payload),
              let members = claims.members else { return .secret(secret) }
        let visible = members.filter { shown($0.key) }.map { TraceField($0.key, value($0.value, name: $0.key, whole: true)) }
        let hidden = members.filter { $0.key == "nonce" }.compactMap { m in m.value.stringValue.map { TraceField("nonce", .secret(Secret(.nonce, $0))) } }
        return .fields([TraceField("redacted", .secret(secret)), TraceField("claims", .fields(visible + hidden))])
    }

    /// A typed value (a form field, a header) with what may be shown of its secrets.
    static func wire(_ text: WireText) -> TraceValue {
        if text.parts.count == 1, case .secret(let s, _) = text.parts[0] { return secret(s) }
        return .wire(text)
    }

    /// A response body: JSON by the allow-list (whole when the request said it holds no
    /// secret), anything else by its size and type only.
    static func body(_ bytes: [UInt8], contentType: String?, whole: Bool) -> TraceValue? {
        guard !bytes.isEmpty else { return nil }
        if let json = JSONValue.parse(bytes) { return value(json, whole: whole) }
        return .text("\(bytes.count) bytes" + (contentType.map { " of \(Sanitize.oneLine($0, limit: 80))" } ?? ""))
    }
}
