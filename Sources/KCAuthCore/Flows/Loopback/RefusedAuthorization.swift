/// What the provider's refusal of an authorization request points at, for the remedy's words
/// (``KCAuthError/Remedy/checkClientOrRedirectURI(_:)``). RFC 6749 §4.1.2.1: an unknown client
/// and a redirect URI the client does not allow are the two errors a provider never sends back to
/// the client, so they are the two settings a refusal before the browser is about.
public struct RefusedAuthorization: Sendable, Equatable {
    public enum Suspect: Sendable, Equatable {
        case clientID
        case redirectURI
        /// The provider's words name neither: both are worth a look.
        case either
    }

    public var suspect: Suspect
    public var clientID: String
    /// The redirect URI the client must allow: without a port where the provider accepts any
    /// loopback port for it or the port is random, else the exact one of this login.
    public var redirectURI: String
    /// The provider is known to accept any loopback port for a redirect URI registered without
    /// one (Keycloak: `LoopbackPortRule`).
    public var anyPortAccepted: Bool
    /// The port was random and the provider may compare redirect URIs exactly: a fixed port,
    /// registered as is, is a way.
    public var fixedPortMayHelp: Bool

    public init(suspect: Suspect, clientID: String, redirectURI: String, anyPortAccepted: Bool, fixedPortMayHelp: Bool) {
        self.suspect = suspect
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.anyPortAccepted = anyPortAccepted
        self.fixedPortMayHelp = fixedPortMayHelp
    }

    /// For a login on `redirectURI` (the listener's, port included) to `issuer`; `fixedPort`:
    /// the port was asked for, not chosen by the system.
    init(_ suspect: Suspect, clientID: String, redirectURI: String, fixedPort: Bool, issuer: String) {
        let anyPort = LoopbackPortRule.anyPortAccepted(issuer: issuer)
        self.init(suspect: suspect, clientID: clientID,
                  redirectURI: anyPort || !fixedPort ? LoopbackPortRule.withoutPort(redirectURI) : redirectURI,
                  anyPortAccepted: anyPort, fixedPortMayHelp: !anyPort && !fixedPort)
    }

    /// What the provider's words (an OAuth error code, its description, the text of an error
    /// page) point at. "redirect" is the more specific word: Keycloak says `Invalid parameter:
    /// redirect_uri` for the one and `Client not found.` for the other.
    static func suspect(words: String?, oauthError: OAuthErrorCode?) -> Suspect {
        let text = (words ?? "").lowercased()
        if text.contains("redirect") { return .redirectURI }
        if oauthError == .invalidClient || oauthError == .unauthorizedClient || text.contains("client") { return .clientID }
        return .either
    }
}
