import KCAuthCore

/// The answer of a session forwarded by `ssh` (the laptop's) to a credential helper: the token
/// for a host, with the user name of the profile that lists it.
public struct ForwardedHelperToken: Sendable {
    public var token: IssuedToken
    public var username: String?

    public init(token: IssuedToken, username: String?) {
        self.token = token
        self.username = username
    }

    /// Asks the forwarded session for `host`'s token, with the picked profile; nil when no
    /// forwarded profile lists the host.
    public typealias Source = @Sendable (_ picked: String?, _ host: CredentialHost) throws -> ForwardedHelperToken?
}
