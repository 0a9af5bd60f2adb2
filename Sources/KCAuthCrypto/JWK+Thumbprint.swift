/// The JWK thumbprint (RFC 7638): what a DPoP-bound token's `cnf.jkt` and the authorization
/// request's `dpop_jkt` name the key by (RFC 9449 §6.1, §10).
extension JWK {
    /// base64url(SHA-256) of the required members in lexicographic order, no whitespace
    /// (RFC 7638 §3.2): EC `crv`, `kty`, `x`, `y`; RSA `e`, `kty`, `n`. Nil for other key types or
    /// when a required member is missing.
    public var thumbprint: String? {
        let members: [(String, String?)]
        switch kty {
        case "EC": members = [("crv", crv), ("kty", kty), ("x", x), ("y", y)]
        case "RSA": members = [("e", e), ("kty", kty), ("n", n)]
        default: return nil
        }
        var json = "{"
        for (index, (name, value)) in members.enumerated() {
            // Members are base64url or fixed names: no character needs JSON escaping.
            guard let value else { return nil }
            json += (index == 0 ? "" : ",") + "\"\(name)\":\"\(value)\""
        }
        return Base64URL.encode(SHA256.hash(Array((json + "}").utf8)))
    }
}
