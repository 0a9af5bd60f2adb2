/// `kcauth token`: the stored access token of a profile, if it is still valid.
///
/// No network and no discovery on this path: it runs on every script call.
public struct GetToken: Sendable {
    let store: any SecretStore
    let clock: any TimeSource

    public init(store: any SecretStore, clock: any TimeSource) {
        self.store = store
        self.clock = clock
    }

    public func run(profile: String) throws -> AuthState {
        guard let secret = try store.read(profile: profile) else {
            throw KCAuthError(.loginRequired, "not logged in (profile '\(profile)')", hint: LoginHint.command(profile: profile))
        }
        let state = try AuthState.decode(secret, profile: profile)
        if let expiry = state.expiresAtEpoch, clock.now() >= expiry {
            throw KCAuthError(.loginRequired, "the access token of profile '\(profile)' expired at \(RFC3339.format(expiry))",
                              hint: LoginHint.command(profile: profile))
        }
        return state
    }
}

public enum LoginHint {
    /// The command that fixes a "login required" state, spelled for copy and paste.
    public static func command(profile: String) -> String {
        profile == ProfileName.defaultName ? "run `kcauth login`" : "run `kcauth login --profile \(profile)`"
    }
}
