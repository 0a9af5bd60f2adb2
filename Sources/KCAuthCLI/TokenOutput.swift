import KCAuthCore

/// The `-o` formats of `token` and `refresh`. Every format is one self-contained document on
/// stdout, so `$(kcauth token -o header)` or `eval "$(kcauth token -o env)"` just work.
enum TokenOutput: String, CaseIterable {
    case raw, header, json, env
    case execCredential = "exec-credential"

    static let option = OptionSpec("output", short: "o", value: "FORMAT", help: "Output format", default: "raw",
                                   choices: allCases.map(\.rawValue))
    static let idToken = OptionSpec("id-token", help: "Print the ID token instead of the access token")

    func render(_ t: IssuedToken, idToken: Bool, profile: String, now: Instant) -> String {
        let token = idToken ? (t.idToken ?? "") : t.accessToken
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
            var fields: [(String, JSONValue)] = [
                (idToken ? "id_token" : "access_token", .string(token)),
                ("token_type", .string(idToken ? "Bearer" : t.tokenType)),
                ("expires_at", .string(expiry?.rfc3339)),
                ("expires_in", .number(expiry.map { max(0, $0.seconds(since: now).rounded(.down)) })),
                ("scope", .string(t.scope)),
                ("issuer", .string(t.issuer)),
                ("profile", .string(profile)),
            ]
            if idToken { fields.removeAll { $0.0 == "scope" } }
            return JSONValue.fields(fields).compact + "\n"
        case .execCredential:
            // client.authentication.k8s.io/v1 ExecCredential: kubectl caches the token until
            // expirationTimestamp, then runs the plugin again.
            var status: [(String, JSONValue)] = [("token", .string(token))]
            if let expiry { status.append(("expirationTimestamp", .string(expiry.rfc3339))) }
            return JSONValue.fields([("apiVersion", .string("client.authentication.k8s.io/v1")),
                                     ("kind", .string("ExecCredential")),
                                     ("status", .fields(status))]).compact + "\n"
        }
    }

}
