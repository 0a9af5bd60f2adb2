/// `kcauth token -o headers-json`: the request's headers as one JSON object on one line
/// (`{"Authorization":"Bearer …"}`, with `DPoP` for a DPoP-bound token, RFC 9449 §7.1), the
/// shape programs that run a headers-helper command read (Claude Code's MCP `headersHelper`,
/// opencode, Codex).
public enum HeadersJSON {
    /// `headers`: name and value, in order. A value with a control character is refused: JSON
    /// would carry it, but the program that sends it would end the header line there.
    public static func document(_ headers: [(String, String)]) throws -> String {
        for (_, value) in headers where !value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
            throw KCAuthError(.invalidResponse, "the token contains characters that cannot go into a request header")
        }
        return JSONValue.fields(headers.map { ($0.0, JSONValue.string($0.1)) }).compact + "\n"
    }
}
