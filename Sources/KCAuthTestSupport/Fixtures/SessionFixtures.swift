import Foundation
import Testing
@_exported import KCAuthCore

public enum SessionFixtures {
    public static let endpoints = ProviderEndpoints(try! JSONDecoder().decode(ProviderMetadata.self, from: Data(Fixtures.discovery.utf8)))
    public static let endSession = Fixtures.issuer + "/protocol/openid-connect/logout"
    public static let revocation = Fixtures.issuer + "/protocol/openid-connect/revoke"
    public static let userinfo = Fixtures.issuer + "/protocol/openid-connect/userinfo"

    /// A stored state obtained at `Fixtures.now`; `expiresIn` / `refreshExpiresIn` nil: not said.
    public static func state(expiresIn: Double? = 300, refreshToken: String? = "rt-1", refreshExpiresIn: Double? = 1800,
                      idToken: String? = Fixtures.idToken, accessToken: String = "at-1",
                      endpoints: ProviderEndpoints = endpoints) -> AuthState {
        let tokens = TokenResponse(accessToken: accessToken, tokenType: "Bearer", expiresIn: expiresIn.flatMap(Seconds.init), refreshToken: refreshToken,
                                   refreshExpiresIn: refreshExpiresIn.flatMap(Seconds.init), idToken: idToken, scope: "openid profile email")
        return AuthState(issuer: Fixtures.issuer, clientID: "kcauth", tokens: tokens, requestedScope: "openid",
                         endpoints: endpoints, now: Instant(clock: Fixtures.now), sessionID: "s-1")
    }

    public static func store(_ state: AuthState, as profile: String = "default", in store: InMemorySecretStore) throws {
        try store.write(try state.encoded(), for: SecretKey(profile: profile, issuer: state.issuer, clientID: state.clientID))
    }

    /// An unsigned JWT with these claims (IdentityClaims never checks signatures).
    public static func jwt(_ claims: String) -> String {
        func b64(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return b64(#"{"alg":"RS256","typ":"JWT"}"#) + "." + b64(claims) + ".c2ln"
    }
}
