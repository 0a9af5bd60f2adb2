import KCAuthCore

/// Where `exec` gets its tokens: the profile's session here, or the forwarded session of `ssh`
/// (then nothing is resolved or read on this host).
public struct ExecTokens: Sendable {
    /// A token of the forwarded session, and the profile it is of.
    public typealias Forwarded = @Sendable (_ minValid: Double, _ idToken: Bool) throws -> (profile: String, token: IssuedToken)

    let context: KCAuthContext
    let profile: ResolvedProfile?
    let forwarded: Forwarded?

    /// `profile` here, or (nil) the `forwarded` session's.
    public init(context: KCAuthContext, profile: ResolvedProfile?, forwarded: Forwarded?) {
        precondition(profile != nil || forwarded != nil)
        self.context = context
        self.profile = profile
        self.forwarded = forwarded
    }

    func token(minValid: Double, idToken: Bool) throws -> (profile: String, token: IssuedToken) {
        guard let profile else { return try forwarded!(minValid, idToken) }
        return (profile.name, try context.tokenProvider(profile).run(TokenProvider.Request(minValid: minValid, idToken: idToken)))
    }
}
