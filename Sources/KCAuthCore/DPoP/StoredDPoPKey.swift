/// A session's DPoP key as the session document keeps it (RFC 9449 §4.1): the algorithm and the
/// private key as PKCS#8 PEM. It lives where the tokens live (keyring, owner-only file, memory),
/// because a bound refresh token is only as safe as the key beside it is; nothing prints it.
public struct StoredDPoPKey: Sendable, Equatable, Codable {
    public var algorithm: String
    public var privateKeyPEM: Secret

    enum CodingKeys: String, CodingKey {
        case algorithm = "alg"
        case privateKeyPEM = "private_key"
    }

    public init(algorithm: String, privateKeyPEM: String) {
        self.algorithm = algorithm
        self.privateKeyPEM = Secret(.dpopKey, privateKeyPEM)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(algorithm: try c.decode(String.self, forKey: .algorithm), privateKeyPEM: try c.decode(String.self, forKey: .privateKeyPEM))
    }

    /// The session document is the key's wire (it lives where the tokens live).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(algorithm, forKey: .algorithm)
        try c.encode(privateKeyPEM.reveal(), forKey: .privateKeyPEM)
    }
}

extension StoredDPoPKey: CustomStringConvertible {
    /// Never the key: a stray `print(state)` or string interpolation must not leak it.
    public var description: String { "StoredDPoPKey(\(algorithm), private key hidden)" }
}
