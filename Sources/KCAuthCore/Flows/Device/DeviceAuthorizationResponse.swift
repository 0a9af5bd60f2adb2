import FoundationEssentials
import KCAuthCrypto

/// The provider's answer (RFC 8628 §3.2): what the user must see and how the client must poll.
public struct DeviceAuthorizationResponse: Sendable, Equatable, Decodable {
    /// §3.5: "If no value is provided, clients MUST use 5 as the default."
    public static let defaultInterval: Double = 5
    /// The longest a device code is waited for, whatever the provider says.
    public static let longestLifetime: Double = 86_400

    public var deviceCode: Secret
    public var userCode: String
    public var verificationURI: String
    /// §3.3.1: the URI with the user code in it; Keycloak always sends one.
    public var verificationURIComplete: String?
    /// Seconds the device code lives.
    public var expiresIn: Double
    /// Minimum seconds between polls.
    public var interval: Double

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
        // Google's pre-RFC spelling; harmless to accept.
        case verificationURL = "verification_url"
    }

    public init(deviceCode: String, userCode: String, verificationURI: String, verificationURIComplete: String? = nil,
                expiresIn: Double, interval: Double = defaultInterval) {
        self.deviceCode = Secret(.deviceCode, deviceCode)
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        deviceCode = Secret(.deviceCode, try c.decode(String.self, forKey: .deviceCode))
        userCode = try c.decode(String.self, forKey: .userCode)
        guard let uri = try c.decodeIfPresent(String.self, forKey: .verificationURI)
                ?? c.decodeIfPresent(String.self, forKey: .verificationURL) else {
            throw DecodingError.keyNotFound(CodingKeys.verificationURI, .init(codingPath: [], debugDescription: "no verification_uri"))
        }
        verificationURI = uri
        verificationURIComplete = try c.decodeIfPresent(String.self, forKey: .verificationURIComplete)
        guard let lifetime = try c.decodeSeconds(.expiresIn), lifetime.value > 0 else {
            throw DecodingError.keyNotFound(CodingKeys.expiresIn, .init(codingPath: [], debugDescription: "'expires_in' is missing or not positive"))
        }
        // Nobody types a code for longer than a day: a larger lifetime would only keep kcauth
        // polling for nothing.
        expiresIn = min(lifetime.value, Self.longestLifetime)
        // A zero interval would have kcauth hammer the token endpoint (at least 1 s); one longer
        // than the code lives would never poll (at most the lifetime).
        interval = min(max(1, try c.decodeSeconds(.interval)?.value ?? Self.defaultInterval), expiresIn)
    }
}
