/// A curl config file line (curl(1), "-K") carrying the bearer header, so that
/// `kcauth token -o curl | curl -K - URL` passes the token on a pipe instead of in curl's argv,
/// which every user of the machine can read in /proc.
public enum CurlConfig {
    public static func header(bearer token: String) throws -> String {
        // In a double-quoted config value curl unescapes \\ and \"; a control character (a
        // newline above all) would end the line and let the rest act as more options.
        guard !token.isEmpty, token.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw KCAuthError(.invalidResponse, "the token contains characters that cannot go into a curl config line")
        }
        var escaped = ""
        for c in token {
            if c == "\\" || c == "\"" { escaped.append("\\") }
            escaped.append(c)
        }
        return "header = \"Authorization: Bearer \(escaped)\"\n"
    }
}
