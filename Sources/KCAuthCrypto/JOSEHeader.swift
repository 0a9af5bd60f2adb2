/// The JOSE header members that matter for verification (RFC 7515 §4.1).
public struct JOSEHeader: Sendable, Equatable {
    /// Algorithm (RFC 7515 §4.1.1), e.g. "RS256". Kept as text so that "none" and "HS256" can be
    /// reported as unsupported rather than as malformed.
    public var alg: String
    /// Key ID (RFC 7515 §4.1.4), used to pick the key from the JWKS.
    public var kid: String?
    /// Media type (RFC 7515 §4.1.9), e.g. "JWT".
    public var typ: String?

    public init(alg: String, kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.kid = kid
        self.typ = typ
    }
}
