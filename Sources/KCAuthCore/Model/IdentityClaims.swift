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
    public init?(unverifiedToken token: Secret) {
        guard let jws = try? CompactJWS(token.reveal()), let payload = JSONValue.parse(jws.payload), payload.members != nil else { return nil }
        all = payload
    }

    public var subject: String? { all["sub"]?.stringValue }
    public var issuer: String? { all["iss"]?.stringValue }
    public var preferredUsername: String? { all["preferred_username"]?.stringValue }
    public var name: String? { all["name"]?.stringValue }
    public var email: String? { all["email"]?.stringValue }
    /// RFC 7519 §4.1.4; nil when absent or not a representable time.
    public var expiresAt: Instant? { if case .number(let n)? = all["exp"] { return Instant(epochSeconds: n) } else { return nil } }

    /// The identity claims (`preferred_username`, `name`, `email`, …) of `userinfo` added where
    /// the token lacks them: many providers put only `sub` in the ID token (OIDC Core §5.4).
    /// Only for the same subject (§5.3.2).
    public func filling(from userinfo: JSONValue?) -> IdentityClaims {
        guard let extra = userinfo?.members, userinfo?["sub"]?.stringValue == subject, case .object(var members) = all else { return self }
        for claim in ["preferred_username", "name", "given_name", "family_name", "email", "email_verified"]
        where all[claim] == nil {
            if let value = extra.first(where: { $0.key == claim })?.value { members.append(.init(claim, value)) }
        }
        return IdentityClaims(payload: .object(members))
    }

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
