import KCAuthCrypto

/// The roles a user has in one client (Keycloak's `resource_access.<client>.roles`).
public struct ClientRoles: Sendable, Equatable {
    public var client: String
    public var roles: [String]
    public init(client: String, roles: [String]) {
        self.client = client
        self.roles = roles
    }
}
