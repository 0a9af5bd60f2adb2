import KCAuthCrypto

/// Who a token says the user is, for `whoami` and `status`: the standard claims (OpenID
/// Connect Core §5.1) plus Keycloak's roles, `realm_access.roles` and
/// `resource_access.<client>.roles`.
///
/// Built from a token's payload **without** checking its signature: kcauth reads it only from
/// its own stored state, and an ID token is stored only after `IDTokenValidator` accepted it
/// (login and refresh). See `WhoAmI` for why that is enough.
public struct IdentityClaims: Sendable, Equatable {
    /// Every claim of the payload.
    public var all: JSONValue

    public init(payload: JSONValue) { all = payload }

    /// The payload of a JWS compact token, or nil when it is not one (an opaque access token).
    public init?(unverifiedToken token: String) {
        guard let jws = try? CompactJWS(token), let payload = JSONValue.parse(jws.payload), payload.members != nil else { return nil }
        all = payload
    }

    public var subject: String? { all["sub"]?.stringValue }
    public var issuer: String? { all["iss"]?.stringValue }
    public var preferredUsername: String? { all["preferred_username"]?.stringValue }
    public var name: String? { all["name"]?.stringValue }
    public var email: String? { all["email"]?.stringValue }
    /// RFC 7519 §4.1.4, seconds since the epoch.
    public var expiresAt: Double? { if case .number(let n)? = all["exp"] { return n } else { return nil } }

    /// The name to show for the user.
    public var displayName: String? { preferredUsername ?? email ?? name ?? subject }

    /// Whether the token carries any Keycloak role claim at all (absent is not "no roles").
    public var hasRoleClaims: Bool { all["realm_access"] != nil || all["resource_access"] != nil }

    /// `realm_access.roles`, sorted; empty when absent.
    public var realmRoles: [String] { Self.roles(in: all["realm_access"]) }

    /// `resource_access`: client id → its roles, both sorted; clients without roles are left out.
    public var clientRoles: [ClientRoles] {
        (all["resource_access"]?.members ?? [])
            .map { ClientRoles(client: $0.key, roles: Self.roles(in: $0.value)) }
            .filter { !$0.roles.isEmpty }
            .sorted { $0.client < $1.client }
    }

    private static func roles(in access: JSONValue?) -> [String] {
        (access?["roles"]?.arrayValue ?? []).compactMap(\.stringValue).sorted()
    }
}
