/// Paste-back (for a browser that cannot reach this machine's 127.0.0.1, RFC 8252 §7.3): the
/// address a browser on another machine could not load — the provider's redirect to
/// `http://127.0.0.1:PORT/callback?code=…&state=…` — copied from its address bar and pasted into
/// kcauth's terminal. Parsing only: what the parameters mean is decided by the same `CallbackJudge`
/// as for a redirect that reaches the listener.
public enum PastedRedirect {
    /// The longest line accepted; a real redirect is a few hundred characters.
    public static let maxLength = 8192

    /// The pasted line as a callback request, or the reason it is not one (one sentence, for the
    /// person to fix the paste).
    public static func parse(_ line: String, redirectURI: String) -> Result<CallbackRequest, Problem> {
        var text = line.trimmingWhitespace()
        // Terminals and chat tools sometimes add quotes or angle brackets around a copied URL.
        for (open, close) in [("\"", "\""), ("'", "'"), ("<", ">")] where text.count >= 2 && text.hasPrefix(open) && text.hasSuffix(close) {
            text = String(text.dropFirst().dropLast())
        }
        guard text.utf8.count <= maxLength else { return .failure(.tooLong) }
        guard !text.isEmpty else { return .failure(.empty) }
        guard !text.contains(where: { $0.isWhitespace }) else { return .failure(.notAnAddress) }
        // Some address bars hide the scheme, and copying then leaves it out.
        if !text.contains("://") { text = "http://" + text }
        let (address, query) = split(text)
        guard address.lowercased() == redirectURI.lowercased() else {
            return .failure(address.lowercased().hasPrefix("http://127.0.0.1:") || address.lowercased().hasPrefix("http://localhost")
                ? .otherAddress(address: Sanitize.oneLine(address, limit: 100)) : .notAnAddress)
        }
        guard let query, !query.isEmpty else { return .failure(.noParameters) }
        let parameters = FormEncoding.decode(query)
        guard parameters["state"] != nil else { return .failure(.noState) }
        return .success(CallbackRequest(parameters: parameters))
    }

    /// (scheme://host:port/path, query) with any `#fragment` dropped.
    private static func split(_ url: String) -> (String, String?) {
        let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
    }

    public enum Problem: Error, Sendable, Equatable {
        case empty, tooLong, notAnAddress, noParameters, noState
        case otherAddress(address: String)

        /// Why the paste was not taken, and what to paste instead.
        public var reason: String {
            switch self {
            case .empty: return "nothing was pasted"
            case .tooLong: return "that is longer than any sign-in address (\(PastedRedirect.maxLength) characters at most)"
            case .notAnAddress: return "that is not the address kcauth waits for; paste the whole address starting with http://127.0.0.1"
            case .noParameters: return "that address has no parameters; sign in first, then copy the address the browser could not load"
            case .noState: return "that address has no 'state'; copy the whole address from the address bar"
            case .otherAddress(let address): return "that address (\(address)) belongs to another sign-in, not to this one"
            }
        }
    }
}
