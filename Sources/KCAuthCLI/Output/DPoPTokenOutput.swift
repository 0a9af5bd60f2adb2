import KCAuthCore

/// `kcauth token` for a DPoP-bound access token (RFC 9449 §7.1): the token goes with a
/// proof for one request (`--dpop-url`, `--dpop-method`), made with the session's key, which
/// never leaves this process.
enum DPoPTokenOutput {
    static let url = OptionSpec("dpop-url", value: "URL",
                                help: "For a DPoP-bound token: make the proof for a request to this URL (-o header, -o curl, -o headers-json)")
    static let method = OptionSpec("dpop-method", value: "METHOD", help: "The HTTP method of that request", default: "GET")

    /// The lines to print instead of the Bearer ones, or nil when the token is a Bearer token
    /// (or an ID token, which is always sent as Bearer).
    static func render(_ token: IssuedToken, format: TokenOutput, idToken: Bool, _ command: ParsedCommand,
                       key: () throws -> DPoPProver) throws -> String? {
        guard !idToken, token.tokenType.lowercased() == "dpop" else { return nil }
        switch format {
        case .raw, .json, .env:
            return nil
        case .execCredential:
            throw KCAuthError(.usage, "the access token is DPoP-bound (RFC 9449) and kubectl cannot send DPoP proofs",
                              hint: "use a profile with `--dpop-mode refresh-only` or without DPoP for kubectl")
        case .header, .curl, .headersJSON:
            guard let target = command.value(url) else {
                throw KCAuthError(.usage, "the access token is DPoP-bound: a request needs a proof made for it",
                                  hint: "pass --dpop-url URL (and --dpop-method METHOD unless it is GET)")
            }
            try InputText.check(target, from: "--dpop-url")
            guard target.hasPrefix("https://") || target.hasPrefix("http://") else {
                throw KCAuthError(.usage, "--dpop-url must be an http:// or https:// URL")
            }
            let verb = command.value(method) ?? "GET"
            guard !verb.isEmpty, verb.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
                throw KCAuthError(.usage, "--dpop-method must be an HTTP method in capitals, e.g. GET or POST")
            }
            // Standard output is the token's and the proof's wire.
            let proof = try key().proof(method: verb, url: target, accessToken: token.accessToken).reveal()
            let accessToken = token.accessToken.reveal()
            // Token and proof are base64url and dots: nothing to escape in either format.
            guard (accessToken + proof).utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else {
                throw KCAuthError(.invalidResponse, "the access token holds characters that cannot go into a header")
            }
            if format == .header {
                return "Authorization: DPoP \(accessToken)\nDPoP: \(proof)\n"
            }
            if format == .headersJSON {
                return try HeadersJSON.document([("Authorization", "DPoP " + accessToken), ("DPoP", proof)])
            }
            return "header = \"Authorization: DPoP \(accessToken)\"\nheader = \"DPoP: \(proof)\"\n"
        }
    }
}
