/// What `whoami` and `status` say about a DPoP session (RFC 9449 §5, §6.1): the key's thumbprint
/// and whether the provider bound the session to it. Never the key itself.
public struct DPoPBinding: Sendable, Equatable {
    /// How the binding was seen.
    public enum Evidence: String, Sendable, Equatable {
        /// The access token is a JWT whose `cnf.jkt` names the key (RFC 9449 §6.1).
        case cnfJKT = "cnf.jkt"
        /// The access token is opaque (or has no `cnf`): the token response's `token_type`.
        case tokenType = "token_type"
    }

    /// The signing algorithm of the key (ES256, …).
    public var algorithm: String
    /// RFC 7638 thumbprint of the key's public JWK; nil when the stored key cannot be read.
    public var thumbprint: String?
    /// Whether the provider bound the session to this key.
    public var bound: Bool
    public var evidence: Evidence

    public init(algorithm: String, thumbprint: String?, bound: Bool, evidence: Evidence) {
        self.algorithm = algorithm
        self.thumbprint = thumbprint
        self.bound = bound
        self.evidence = evidence
    }

    /// nil for a session without a DPoP key.
    public init?(_ state: AuthState) {
        guard let stored = state.dpop else { return nil }
        algorithm = stored.algorithm
        thumbprint = (try? DPoPKey(stored: stored))?.thumbprint
        // The access token's claims are read unverified: they only describe the session here.
        if let jkt = IdentityClaims(unverifiedToken: state.accessToken)?.all["cnf"]?["jkt"]?.stringValue {
            bound = thumbprint != nil && jkt == thumbprint
            evidence = .cnfJKT
        } else {
            bound = state.tokenType.lowercased() == "dpop"
            evidence = .tokenType
        }
    }

    /// One line for people: `ES256 key <thumbprint>; bound by the provider (cnf.jkt)`.
    public var summary: String {
        let key = "\(algorithm) key " + (thumbprint ?? "(unreadable)")
        return key + (bound ? "; bound by the provider (\(evidence.rawValue))"
                            : "; not bound by the provider (\(evidence == .cnfJKT ? "cnf.jkt names another key" : "Bearer tokens"))")
    }

    /// The JSON object of `whoami` and `status` (docs/json.md).
    public var json: JSONValue {
        .fields([("alg", .string(algorithm)), ("thumbprint", .string(thumbprint)), ("bound", .bool(bound)),
                 ("bound_by", .string(evidence.rawValue))])
    }
}
