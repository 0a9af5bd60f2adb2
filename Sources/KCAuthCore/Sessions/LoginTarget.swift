/// The provider and client a sign-in goes to: the issuer and client id a profile must name
/// before any login, person or client, can start.
public struct LoginTarget: Sendable, Equatable {
    public var issuer: String
    public var clientID: String
}

extension ResolvedProfile {
    /// The one check every login makes: the profile names an issuer and a client id, or the
    /// usage error says which is missing (the CLI phrases the remedy with its flags).
    public func loginTarget() throws -> LoginTarget {
        guard let issuer = issuer?.value else {
            throw KCAuthError(.usage, "no issuer for profile '\(name)'", remedy: .giveIssuer)
        }
        guard let clientID = clientID?.value else {
            throw KCAuthError(.usage, "no client id for profile '\(name)'", remedy: .giveClientID)
        }
        return LoginTarget(issuer: issuer, clientID: clientID)
    }
}
