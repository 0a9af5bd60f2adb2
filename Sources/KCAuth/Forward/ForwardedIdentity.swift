import KCAuthContract
import KCAuthCore

/// `whoami` on the remote side of a forward: the forward, and who the token the laptop serves
/// says the user is (its claims, read without checking the signature: it came from the user's
/// own laptop over the user's own socket, and is shown, not trusted for anything).
public struct ForwardedIdentity: Sendable, Equatable {
    public var forward: ForwardDescription
    /// The profile that answered, the token's issuer, client, claims, scope and expiry; no
    /// refresh token (none crosses), storage `forwarded`.
    public var identity: WhoAmI.Identity
}

extension ForwardedToken {
    /// Where the laptop answers; nil when no forward is in force.
    public var socket: String? {
        if case .laptop(let socket) = use { return socket }
        return nil
    }

    /// The forward and the identity in the access token it serves for `profile` (nil: the
    /// forward's first).
    public func identity(profile: String?) throws -> ForwardedIdentity {
        let forward = try describe()
        let answer = try token(profile: profile, minValid: TokenDefaults.minValid, idToken: false)
        let claims = IdentityClaims(unverifiedToken: answer.token.accessToken)
        let roles = claims?.hasRoleClaims == true ? claims : nil
        let identity = WhoAmI.Identity(
            profile: answer.profile, issuer: answer.token.issuer, clientID: answer.token.clientID, claims: claims,
            rolesSource: roles == nil ? nil : "access_token", realmRoles: roles?.realmRoles ?? [], clientRoles: roles?.clientRoles ?? [],
            scopes: answer.token.scope.split(separator: " ").map(String.init), accessTokenExpiresAt: answer.token.expiresAt,
            refreshTokenExpiresAt: nil, hasRefreshToken: false, health: .valid, storage: "forwarded", userinfo: nil)
        return ForwardedIdentity(forward: forward, identity: identity)
    }
}
