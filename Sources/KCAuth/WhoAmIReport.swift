import KCAuthCore

/// `kcauth whoami` as a use case: the stored identity, and with `userinfo` the provider's
/// answer, after refreshing an expired access token under the usual lock (so "expired but
/// refreshable" is not reported as a dead session). A fresh userinfo answer is kept with the
/// session, so later offline `whoami`/`status` calls can name the user.
public struct WhoAmIReport: Sendable {
    let context: KCAuthContext
    let profile: ResolvedProfile

    init(context: KCAuthContext, profile: ResolvedProfile) {
        self.context = context
        self.profile = profile
    }

    public func run(userinfo: Bool) throws -> WhoAmI.Identity {
        if userinfo {
            _ = try context.getToken(profile).run(GetToken.Request(profile: profile.name, minValid: 10))
        }
        let store = context.store(for: profile)
        let identity = try WhoAmI(store: store, clock: context.clock)
            .run(profile: profile.name, userinfo: userinfo ? context.http(for: profile) : nil)
        if userinfo, let answer = identity.userinfo { keep(answer, in: store) }
        return identity
    }

    /// Best effort, under the refresh lock: the identity is a convenience, never worth an error.
    private func keep(_ userinfo: JSONValue, in store: any SecretStore) {
        _ = try? context.lock(for: profile).withLock(profile: profile.name, timeout: 5) {
            guard let secret = try store.read(profile: profile.name) else { return }
            var state = try AuthState.decode(secret, profile: profile.name)
            guard state.userinfo != userinfo else { return }
            state.userinfo = userinfo
            try store.write(try state.encoded(), for: SecretKey(profile: profile.name, issuer: state.issuer, clientID: state.clientID))
        }
    }
}
