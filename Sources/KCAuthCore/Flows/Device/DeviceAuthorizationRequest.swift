import FoundationEssentials
import KCAuthCrypto

/// One device authorization request (RFC 8628 §3.1) with the PKCE verifier kept for the token
/// poll. Keycloak requires an S256 challenge here whenever the client enforces PKCE
/// (keycloak#9710), and verifies it when sent anyway, so kcauth always sends one.
public struct DeviceAuthorizationRequest: Sendable, Equatable {
    public static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// RFC 7636 §4.1: 32 random bytes → 43 base64url characters.
    public let codeVerifier: Secret
    public let clientID: String
    public let scope: String

    public init(clientID: String, scope: String, random: any RandomSource) throws {
        codeVerifier = Secret(.codeVerifier, Base64URL.encode(try random.bytes(32)))
        self.clientID = clientID
        self.scope = scope
    }

    public var codeChallenge: String { PKCE.challenge(forVerifier: codeVerifier.reveal()) }

    /// §3.1: a public client identifies itself with `client_id` only.
    public var fields: [FormField] {
        [FormField("client_id", clientID), FormField("scope", scope),
         FormField("code_challenge", codeChallenge), FormField("code_challenge_method", "S256")]
    }

    /// §3.4, plus RFC 7636 §4.5's `code_verifier`.
    public func tokenRequestFields(deviceCode: Secret) -> [FormField] {
        [FormField("grant_type", Self.grantType), FormField("device_code", deviceCode),
         FormField("client_id", clientID), FormField("code_verifier", codeVerifier)]
    }
}
