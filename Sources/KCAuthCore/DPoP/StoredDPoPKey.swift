/// A session's DPoP key as the session document keeps it (RFC 9449 §4.1): the algorithm and the
/// private key as PKCS#8 PEM. It lives where the tokens live (keyring, owner-only file, memory),
/// because a bound refresh token is only as safe as the key beside it is; nothing prints it.
public struct StoredDPoPKey: Sendable, Equatable, Codable {
    public var algorithm: String
    public var privateKeyPEM: String

    enum CodingKeys: String, CodingKey {
        case algorithm = "alg"
        case privateKeyPEM = "private_key"
    }

    public init(algorithm: String, privateKeyPEM: String) {
        self.algorithm = algorithm
        self.privateKeyPEM = privateKeyPEM
    }
}

extension StoredDPoPKey: CustomStringConvertible {
    /// Never the key: a stray `print(state)` or string interpolation must not leak it.
    public var description: String { "StoredDPoPKey(\(algorithm), private key hidden)" }
}
