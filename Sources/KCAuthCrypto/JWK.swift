/// A public JSON Web Key (RFC 7517 §4), reduced to the members JWS verification needs. Encoded
/// (absent members left out) as the `jwk` header of a DPoP proof (RFC 9449 §4.2).
///
/// Unknown members (`x5c`, `x5t`, `key_ops`, private members, ...) are ignored. Member values
/// stay base64url text here; they are decoded, and checked against the algorithm, only when a
/// key is used (``JWSVerifier/verify(_:with:)``).
public struct JWK: Sendable, Equatable, Codable {
    /// Key type (RFC 7517 §4.1): "RSA" or "EC" are usable; others are ignored.
    public var kty: String
    /// Key ID (RFC 7517 §4.5), matched against the JOSE header's `kid`, case-sensitively.
    public var kid: String?
    /// Public key use (RFC 7517 §4.2): "sig" or "enc". Keycloak publishes both in one JWKS.
    public var use: String?
    /// The algorithm the key is meant for (RFC 7517 §4.4), e.g. "RS256" or "RSA-OAEP".
    public var alg: String?
    /// RSA modulus and exponent, base64url big-endian (RFC 7518 §6.3.1).
    public var n: String?
    public var e: String?
    /// EC curve and coordinates (RFC 7518 §6.2.1): "P-256"/"P-384", each coordinate full-size.
    public var crv: String?
    public var x: String?
    public var y: String?

    public init(kty: String, kid: String? = nil, use: String? = nil, alg: String? = nil,
                n: String? = nil, e: String? = nil, crv: String? = nil, x: String? = nil, y: String? = nil) {
        self.kty = kty
        self.kid = kid
        self.use = use
        self.alg = alg
        self.n = n
        self.e = e
        self.crv = crv
        self.x = x
        self.y = y
    }
}
