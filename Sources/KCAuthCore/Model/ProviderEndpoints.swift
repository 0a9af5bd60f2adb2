import FoundationEssentials

/// The endpoints kept with the auth state, so `token` and later commands need no discovery.
public struct ProviderEndpoints: Sendable, Equatable, Codable {
    public var token: String
    public var jwks: String
    public var userinfo: String?
    public var endSession: String?
    public var revocation: String?
    public var deviceAuthorization: String?

    enum CodingKeys: String, CodingKey {
        case token, jwks, userinfo
        case endSession = "end_session"
        case revocation
        case deviceAuthorization = "device_authorization"
    }

    public init(_ m: ProviderMetadata) {
        token = m.tokenEndpoint
        jwks = m.jwksURI
        userinfo = m.userinfoEndpoint
        endSession = m.endSessionEndpoint
        revocation = m.revocationEndpoint
        deviceAuthorization = m.deviceAuthorizationEndpoint
    }
}
