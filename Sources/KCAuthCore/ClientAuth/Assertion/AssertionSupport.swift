import KCAuthCrypto

/// Whether a provider's discovery document (RFC 8414 §2) admits a signed client assertion.
public enum AssertionSupport {
    /// Throws `KCAuthError(.provider)` when discovery lists its token endpoint methods without
    /// `private_key_jwt`, or lists its signing algorithms without `algorithm`. Unlisted means
    /// unknown, not refused: many providers publish neither list, and the token endpoint's
    /// answer is the real test.
    public static func check(algorithm: JWSAlgorithm?, methods: [String]?, algorithms: [String]?) throws {
        if let methods, !methods.contains("private_key_jwt") {
            throw KCAuthError(.provider, "the provider does not accept signed client assertions (it offers: \(ClientSecretMethod.listing(methods)))")
        }
        if let algorithm, let algorithms, !algorithms.compactMap(JWSAlgorithm.init(rawValue:)).contains(algorithm) {
            throw KCAuthError(.provider, "the provider does not accept \(algorithm.rawValue) client assertions (it accepts: \(ClientSecretMethod.listing(algorithms)))")
        }
    }
}
