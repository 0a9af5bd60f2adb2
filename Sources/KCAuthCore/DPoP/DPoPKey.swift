import KCAuthCrypto

/// The key a DPoP session proves possession of (RFC 9449 §4.1), loaded for signing: the
/// private key, its algorithm, its public JWK and that JWK's thumbprint (RFC 7638), which the
/// provider puts in the bound token's `cnf.jkt` (§6.1) and the authorization request carries
/// as `dpop_jkt` (§10).
public struct DPoPKey: Sendable {
    /// What kcauth generates, in order of preference: ES256 (small, fast; the RFC's example),
    /// then PS256 and RS256 for providers that list only RSA (§5.1 metadata).
    public static let preferredAlgorithms: [JWSAlgorithm] = [.ES256, .PS256, .RS256]

    public let signer: JWSSigner
    public let jwk: JWK
    public let thumbprint: String
    public let stored: StoredDPoPKey

    /// Makes a new key, for one login.
    public static func generate(_ algorithm: JWSAlgorithm) throws -> DPoPKey {
        try wrapping {
            let key = try PrivateKey.generate(for: algorithm)
            var pem = try key.pkcs8PEM()
            defer { for i in pem.indices { pem[i] = 0 } }
            return try DPoPKey(key: key, algorithm: algorithm,
                               stored: StoredDPoPKey(algorithm: algorithm.rawValue, privateKeyPEM: String(decoding: pem, as: UTF8.self)))
        }
    }

    /// The key kept with a session.
    public init(stored: StoredDPoPKey) throws {
        guard let algorithm = JWSAlgorithm(rawValue: stored.algorithm), Self.preferredAlgorithms.contains(algorithm) else {
            throw KCAuthError(.loginRequired, "the session's DPoP key has an algorithm kcauth does not use ('\(Sanitize.oneLine(stored.algorithm, limit: 20))')")
        }
        self = try Self.wrapping { try DPoPKey(key: try PrivateKey(pem: Array(stored.privateKeyPEM.reveal().utf8)), algorithm: algorithm, stored: stored) }
    }

    private init(key: PrivateKey, algorithm: JWSAlgorithm, stored: StoredDPoPKey) throws {
        signer = try JWSSigner(key: key, algorithm: algorithm)
        jwk = try key.publicJWK()
        guard let thumbprint = jwk.thumbprint else { throw CryptoError(code: .library, message: "cannot compute the key's thumbprint") }
        self.thumbprint = thumbprint
        self.stored = stored
    }

    /// The first of ``preferredAlgorithms`` the provider accepts (`dpop_signing_alg_values_supported`);
    /// ES256 when it lists none (it may do DPoP without saying so); nil when it lists only others.
    public static func algorithm(for metadata: ProviderMetadata) -> JWSAlgorithm? {
        guard let listed = metadata.dpopSigningAlgValuesSupported, !listed.isEmpty else { return .ES256 }
        let accepted = listed.compactMap(JWSAlgorithm.init(rawValue:))
        return preferredAlgorithms.first(where: accepted.contains)
    }

    /// Crypto failures become kcauth errors; none of their texts quotes key material.
    private static func wrapping<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as CryptoError {
            throw KCAuthError(.internal, "the DPoP key: \(error.message)")
        }
    }
}
