/// The answer to a pushed authorization request (RFC 9126 §2.2).
public struct PushedAuthorizationResponse: Decodable, Sendable, Equatable {
    /// Opaque, single-use, short-lived; the browser gets it with `client_id` only (§4).
    public var requestURI: String
    /// Seconds the `request_uri` stays valid (Keycloak: 60).
    public var expiresIn: Double

    enum CodingKeys: String, CodingKey {
        case requestURI = "request_uri"
        case expiresIn = "expires_in"
    }

    public init(requestURI: String, expiresIn: Double) {
        self.requestURI = requestURI
        self.expiresIn = expiresIn
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requestURI = try c.decode(String.self, forKey: .requestURI)
        guard !requestURI.isEmpty, requestURI.count <= 2048, requestURI.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw DecodingError.dataCorruptedError(forKey: .requestURI, in: c, debugDescription: "'request_uri' is not a short printable URI")
        }
        expiresIn = try c.decode(Double.self, forKey: .expiresIn)
        guard expiresIn.isFinite, expiresIn > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .expiresIn, in: c, debugDescription: "'expires_in' is not a positive number of seconds")
        }
    }
}
