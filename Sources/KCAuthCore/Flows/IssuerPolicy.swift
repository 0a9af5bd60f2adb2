import FoundationEssentials
import KCAuthContract

/// Which issuer and endpoint URLs kcauth talks to.
///
/// Tokens and codes must only travel over TLS (RFC 6749 §3.1, §3.2; RFC 9700 §2.6), except to a
/// loopback host, which never leaves the machine (used by the local test provider and by
/// developers running a provider on their laptop).
public enum IssuerPolicy {
    /// Normalises a user-given issuer (drops one trailing `/`) and checks its scheme and host.
    public static func normalizedIssuer(_ raw: String) throws -> String {
        // The contract's rule (RFC 3986 by hand), so the front accepts exactly these issuers.
        switch IssuerRule.normalize(raw) {
        case .success(let issuer):
            return issuer
        case .failure(.notAURL):
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(raw))' is not an issuer URL", hint: "use e.g. https://sso.example.com/realms/NAME")
        case .failure(.queryOrFragment):
            throw KCAuthError(.usage, "an issuer URL has no query or fragment: '\(Sanitize.oneLine(raw))'")
        case .failure(.plainHTTP):
            throw plainHTTP(raw, what: "issuer", fault: .usage)
        case .failure(.unsupportedScheme(let scheme)):
            throw KCAuthError(.usage, "unsupported URL scheme '\(Sanitize.oneLine(scheme))' for issuer")
        }
    }

    /// Checks an endpoint URL taken from a discovery document.
    public static func checkEndpoint(_ raw: String, what: String) throws {
        guard let url = URLComponents(string: raw), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw KCAuthError(.invalidResponse, "the provider's \(what) '\(Sanitize.oneLine(raw))' is not a URL")
        }
        // The discovery document is the provider's answer, not the user's input: a plain-http
        // endpoint there is a provider fault (exit 1), not a usage error (exit 2).
        try check(url: raw, scheme: scheme, host: host, what: what, fault: .invalidResponse)
    }

    /// 127.0.0.0/8, ::1 and `localhost` (RFC 8252 §8.3 names the first two; `localhost` resolves to them).
    public static func isLoopback(host: String) -> Bool {
        var h = host.lowercased()
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        if h == "localhost" || h == "::1" { return true }
        let octets = h.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    private static func plainHTTP(_ url: String, what: String, fault: KCAuthError.Code) -> KCAuthError {
        KCAuthError(fault, "refusing plain-http \(what) \(Sanitize.oneLine(url)): tokens must travel over https",
                    hint: "use the https:// URL of the provider (http is allowed only for 127.0.0.1, [::1] and localhost)")
    }

    /// `fault` is the error code for a refused URL: `.usage` when the user typed it,
    /// `.invalidResponse` when the provider published it.
    private static func check(url: String, scheme: String, host: String, what: String, fault: KCAuthError.Code) throws {
        switch scheme {
        case "https":
            return
        case "http" where isLoopback(host: host):
            return
        case "http":
            throw plainHTTP(url, what: what, fault: fault)
        default:
            throw KCAuthError(fault, "unsupported URL scheme '\(scheme)' for \(what)")
        }
    }
}
