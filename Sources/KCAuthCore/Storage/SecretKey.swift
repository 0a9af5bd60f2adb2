/// The attributes an item is stored under (Secret Service schema `dev.kcauth.AuthState`).
public struct SecretKey: Sendable, Hashable {
    public var profile: String
    public var issuer: String
    public var clientID: String

    public init(profile: String, issuer: String, clientID: String) {
        self.profile = profile
        self.issuer = issuer
        self.clientID = clientID
    }

    /// The key of the session `state` of `profile`: the issuer and client it was signed in with.
    public init(profile: String, session state: AuthState) {
        self.init(profile: profile, issuer: state.issuer, clientID: state.clientID)
    }

    /// The item label a keyring UI shows.
    public var label: String { "kcauth: \(profile) (\(clientID) at \(issuer))" }
}
