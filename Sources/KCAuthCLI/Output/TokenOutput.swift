import KCAuthContract
import KCAuthCore

/// The `-o` formats of `token` and `refresh` (the contract's ``TokenFormat``, whose words the
/// front shares), rendered by the full program. Every format is one self-contained document on
/// stdout, so `$(kcauth token -o header)` or `eval "$(kcauth token -o env)"` just work.
typealias TokenOutput = TokenFormat

extension TokenFormat {
    static let option = OptionSpec("output", short: "o", value: "FORMAT", help: "Output format", default: TokenFormat.raw.rawValue,
                                   choices: ChoiceWords.words(TokenFormat.self))
    static let idToken = OptionSpec("id-token", help: "Print the ID token instead of the access token")

    /// A format whose syntax a token could break out of refuses such a token before anything is
    /// printed.
    func check(_ t: IssuedToken, idToken: Bool) throws {
        if self == .curl { _ = try CurlConfig.header(bearer: Self.token(t, idToken: idToken)) }
        if self == .headersJSON { _ = try HeadersJSON.document([("Authorization", "Bearer " + Self.token(t, idToken: idToken))]) }
    }

    /// `exec` is the ExecCredential version kubectl asked for (`KUBERNETES_EXEC_INFO`).
    /// The token to print: standard output is its wire.
    static func token(_ t: IssuedToken, idToken: Bool) -> String {
        (idToken ? t.idToken?.reveal() : t.accessToken.reveal()) ?? ""
    }

    func render(_ t: IssuedToken, idToken: Bool, profile: String, now: Instant, exec: ExecCredentialVersion = .v1) -> String {
        let token = Self.token(t, idToken: idToken)
        let expiry = idToken ? t.idTokenExpiresAt : t.expiresAt
        switch self {
        case .raw:
            return token + "\n"
        case .header:
            // An ID token is also sent as a bearer token (e.g. to the Kubernetes API server).
            return "Authorization: Bearer \(token)\n"
        case .env:
            var lines = ["export KCAUTH_\(idToken ? "ID" : "ACCESS")_TOKEN=\(Shell.quote(token))"]
            if let expiry { lines.append("export KCAUTH_EXPIRES_AT=\(expiry.rfc3339)") }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            // docs/json.md documents these keys; the same names and types as every other -o json.
            let fields: [(String, JSONValue)] = [
                ("version", .number(SessionOutput.schemaVersion)),
                (idToken ? "id_token" : "access_token", .string(token)),
                ("token_type", .string(idToken ? "Bearer" : t.tokenType)),
                ("expires_at", .string(expiry?.rfc3339)),
                ("expires_in", .number(expiry.map { max(0, $0.seconds(since: now).rounded(.down)) })),
                ("scope", .string(t.scope)),
                ("issuer", .string(t.issuer)),
                ("profile", .string(profile)),
            ]
            return JSONValue.fields(fields).rendered()
        case .execCredential:
            // kubectl caches the token until expirationTimestamp, then runs the plugin again.
            return ExecCredential(version: exec, token: token, expiresAt: expiry).json
        case .curl:
            return (try? CurlConfig.header(bearer: token)) ?? ""  // `check` refused such a token
        case .headersJSON:
            // An ID token is sent as a bearer token too, as with `header`.
            return (try? HeadersJSON.document([("Authorization", "Bearer " + token)])) ?? ""  // `check` refused such a token
        }
    }
}
