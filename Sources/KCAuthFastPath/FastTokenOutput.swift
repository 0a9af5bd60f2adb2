import KCAuthContract

/// `kcauth token -o FORMAT` for a cached access token, byte for byte as the full program's
/// TokenOutput renders it. JSON strings are written without escaping, so `json` and
/// `exec-credential` (and `curl`'s quoted header, `headers-json`) are rendered only when every string is printable ASCII without `"` or `\`
/// (JWTs, scopes and URLs are); otherwise nil, and the full program renders them.
struct FastTokenOutput {
    /// The contract's formats (their words are the full program's too).
    typealias Format = TokenFormat

    let format: Format

    /// `execVersion`: the ExecCredential apiVersion kubectl asked for (``ExecInfoRule``).
    func render(_ t: CacheRecord, profile: String, now: Double, execVersion: String = ExecInfoRule.v1) -> String? {
        // Without a known expiry the full program leaves fields out: it renders those itself.
        guard let expiresAt = t.expiresAt else {
            switch format {
            case .raw, .header, .headersJSON: return render(t, expiry: "", expiresAt: 0, profile: profile, now: now, execVersion: execVersion)
            default: return nil
            }
        }
        return render(t, expiry: Timestamp.format(expiresAt), expiresAt: expiresAt, profile: profile, now: now, execVersion: execVersion)
    }

    private func render(_ t: CacheRecord, expiry: String, expiresAt: Double, profile: String, now: Double, execVersion: String) -> String? {
        switch format {
        case .raw:
            return t.accessToken + "\n"
        case .header:
            return "Authorization: Bearer " + t.accessToken + "\n"
        case .env:
            // Shell.quote: single quotes, a quote inside becomes '\''.
            let quoted = t.accessToken.utf8.contains(UInt8(ascii: "'"))
                ? "'" + t.accessToken.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
                : "'" + t.accessToken + "'"
            return "export KCAUTH_ACCESS_TOKEN=" + quoted + "\nexport KCAUTH_EXPIRES_AT=" + expiry + "\n"
        case .json:
            guard let fields = Self.quoted([t.accessToken, t.tokenType, expiry, t.scope, t.issuer, profile]) else { return nil }
            let expiresIn = Int64(max(0, (expiresAt - now).rounded(.down)))
            // JSONValue.rendered(): two-space indentation, `"key": value`, keys as docs/json.md lists them.
            // Concatenation, not interpolation (docs/performance.md §4).
            return "{\n  \"version\": 1,\n  \"access_token\": " + fields[0] + ",\n  \"token_type\": " + fields[1] + ",\n"
                + "  \"expires_at\": " + fields[2] + ",\n  \"expires_in\": " + Timestamp.decimal(expiresIn) + ",\n  \"scope\": " + fields[3] + ",\n"
                + "  \"issuer\": " + fields[4] + ",\n  \"profile\": " + fields[5] + "\n}\n"
        case .execCredential:
            guard let fields = Self.quoted([t.accessToken, expiry]) else { return nil }
            return "{\"apiVersion\":\"" + execVersion + "\",\"kind\":\"ExecCredential\","
                + "\"status\":{\"token\":" + fields[0] + ",\"expirationTimestamp\":" + fields[1] + "}}\n"
        case .curl:
            // CurlConfig.header: a token that needs no escape goes between the quotes as it is.
            guard Self.quoted([t.accessToken]) != nil else { return nil }
            return "header = \"Authorization: Bearer " + t.accessToken + "\"\n"
        case .headersJSON:
            // HeadersJSON.document: JSONValue's compact object, the token between the quotes as it is.
            guard Self.quoted([t.accessToken]) != nil else { return nil }
            return "{\"Authorization\":\"Bearer " + t.accessToken + "\"}\n"
        }
    }

    /// Each string in JSON quotes, or nil if one would need an escape.
    static func quoted(_ strings: [String]) -> [String]? {
        var out: [String] = []
        for s in strings {
            for c in s.utf8 where c < 0x20 || c >= 0x7F || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return nil }
            out.append("\"" + s + "\"")
        }
        return out
    }
}
