import KCAuthCore

/// The `-o` formats of `token` and `refresh`. Every format is one self-contained document on
/// stdout, so `$(kcauth token -o header)` or `eval "$(kcauth token -o env)"` just work.
enum TokenOutput: String, CaseIterable {
    case raw, header, json, env
    case execCredential = "exec-credential"

    static let option = OptionSpec("output", short: "o", value: "FORMAT", help: "Output format", default: "raw",
                                   choices: allCases.map(\.rawValue))
    static let idToken = OptionSpec("id-token", help: "Print the ID token instead of the access token")

    func render(_ t: IssuedToken, idToken: Bool, profile: String, now: Double) -> String {
        let token = idToken ? (t.idToken ?? "") : t.accessToken
        let expiry = idToken ? t.idTokenExpiresAt : t.expiresAt
        switch self {
        case .raw:
            return token + "\n"
        case .header:
            // An ID token is also sent as a bearer token (e.g. to the Kubernetes API server).
            return "Authorization: Bearer \(token)\n"
        case .env:
            var lines = ["export KCAUTH_\(idToken ? "ID" : "ACCESS")_TOKEN=\(Self.shellQuote(token))"]
            if let expiry { lines.append("export KCAUTH_EXPIRES_AT=\(RFC3339.format(expiry))") }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            var fields: [(String, String)] = [
                (idToken ? "id_token" : "access_token", JSON.string(token)),
                ("token_type", JSON.string(idToken ? "Bearer" : t.tokenType)),
                ("expires_at", expiry.map { JSON.string(RFC3339.format($0)) } ?? "null"),
                ("expires_in", expiry.map { String(max(0, Int(($0 - now).rounded(.down)))) } ?? "null"),
                ("scope", JSON.string(t.scope)),
                ("issuer", JSON.string(t.issuer)),
                ("profile", JSON.string(profile)),
            ]
            if idToken { fields.removeAll { $0.0 == "scope" } }
            return JSON.object(fields) + "\n"
        case .execCredential:
            // client.authentication.k8s.io/v1 ExecCredential: kubectl caches the token until
            // expirationTimestamp, then runs the plugin again.
            var status = [("token", JSON.string(token))]
            if let expiry { status.append(("expirationTimestamp", JSON.string(RFC3339.format(expiry)))) }
            return JSON.object([("apiVersion", JSON.string("client.authentication.k8s.io/v1")),
                                ("kind", JSON.string("ExecCredential")),
                                ("status", JSON.object(status))]) + "\n"
        }
    }

    /// Single quotes keep every byte literal in POSIX shells; a quote inside becomes '\''.
    static func shellQuote(_ s: String) -> String { "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" }
}

/// Minimal JSON writing with a fixed key order (stable output for scripts and tests).
enum JSON {
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
