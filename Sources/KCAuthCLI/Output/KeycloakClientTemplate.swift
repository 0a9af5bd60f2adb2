import KCAuthCore

/// The Keycloak client kcauth needs, for `kcauth setup-client`: a public OpenID Connect
/// client with the standard flow (browser login, loopback redirect with any port on 127.0.0.1,
/// RFC 8252 §7.3), the device grant, PKCE S256 required, and nothing else (no direct access
/// grants, no implicit flow, no service account). Pure text: no network, nothing stored.
public struct KeycloakClientTemplate: Sendable, Equatable {
    /// Keycloak accepts any port for a registered loopback URI without one (notes: keycloak-26 §a).
    public static let redirectURI = "http://127.0.0.1/callback"
    /// Where `kcauth logout --browser` asks to be sent back (any port, like the redirect URI).
    public static let postLogoutRedirectURI = "http://127.0.0.1/logged-out"

    public var clientID: String

    public init(clientID: String) throws {
        guard !clientID.isEmpty, clientID.count <= 255, clientID.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(clientID))' is not a usable client id")
        }
        self.clientID = clientID
    }

    /// The client representation, as the admin console's "Import client" and `kcadm.sh create
    /// clients -f` read it. Keys in a fixed order, so the output is stable and diffable.
    public var json: String {
        let q = JSONValue.quoted
        return """
        {
          "clientId": \(q(clientID)),
          "name": "kcauth",
          "description": "Command-line sign-in with kcauth: browser login with PKCE, or the device grant",
          "protocol": "openid-connect",
          "enabled": true,
          "publicClient": true,
          "standardFlowEnabled": true,
          "implicitFlowEnabled": false,
          "directAccessGrantsEnabled": false,
          "serviceAccountsEnabled": false,
          "redirectUris": [\(q(Self.redirectURI))],
          "webOrigins": [],
          "attributes": {
            "pkce.code.challenge.method": "S256",
            "oauth2.device.authorization.grant.enabled": "true",
            "post.logout.redirect.uris": \(q(Self.postLogoutRedirectURI))
          }
        }

        """
    }

    /// `kcadm.sh` commands that create the same client; a shell script (values quoted).
    public func kcadm(server: String, realm: String) -> String {
        let sh = Shell.quote
        return """
        # Log in as an administrator (kcadm.sh asks for the password):
        kcadm.sh config credentials --server \(sh(server)) --realm master --user admin
        # Create the client in realm \(realm):
        kcadm.sh create clients -r \(sh(realm)) -f - <<'KCAUTH_CLIENT'
        \(json)KCAUTH_CLIENT

        """
    }
}
