import KCAuthCore

/// `token` run by kubectl as its exec credential plugin: kubectl says in `KUBERNETES_EXEC_INFO`
/// which ExecCredential version it reads and whether a person is there (`spec.interactive`). If
/// a person is there and the profile has no session, the profile signs in first, as a login
/// does — its progress for stderr, stdout stays the ExecCredential — as kubelogin's `get-token`
/// does; otherwise the "sign in" error stands (exit 4).
public struct KubectlLogin: Sendable {
    let context: KCAuthContext
    let profile: ResolvedProfile
    /// The token is for kubectl (an ExecCredential answer): only then may a sign-in start.
    let kubectl: Bool

    public init(context: KCAuthContext, profile: ResolvedProfile, kubectl: Bool) {
        self.context = context
        self.profile = profile
        self.kubectl = kubectl
    }

    /// What kubectl said in the environment (nothing: not run by kubectl, not interactive).
    public static func execInfo(_ environment: [String: String]) throws -> KubernetesExecInfo {
        try KubernetesExecInfo(environmentValue: environment[KubernetesExecInfo.variable])
    }

    /// The token, after a sign-in when kubectl asks for one interactively and `personPresent`
    /// (a terminal on stdin or stderr: kubectl's word alone is not enough, a CI job may have
    /// copied an interactive kubeconfig). The sign-in is `login`'s (``Login``, in its kubectl
    /// mode): first-run questions when `canAsk`, the store offer, one sign-in per profile.
    public func run(_ request: GetToken.Request, personPresent: Bool, canAsk: Bool,
                    offerEncryptedStore: (@Sendable (ResolvedProfile) throws -> Bool)? = nil,
                    notify: @escaping @Sendable (Login.Event) -> Void) throws -> (token: IssuedToken, signedIn: Login.Result?) {
        // A version kubectl cannot take is an error before any keyring or network work.
        let info = kubectl ? try Self.execInfo(context.environment) : KubernetesExecInfo()
        do {
            return (try context.getToken(profile).run(request), nil)
        } catch let error as KCAuthError where error.code == .loginRequired {
            guard kubectl, info.interactive, personPresent else { throw error }
            let result = try context.login(SettingsFlags(profile: profile.name))
                .run(Login.Options(canAsk: canAsk, kubectl: true, offerEncryptedStore: offerEncryptedStore), notify: notify)
            // The sign-in saved the profile's settings: resolve them again for the new session.
            return (try context.getToken(context.resolve(SettingsFlags(profile: profile.name))).run(request), result)
        }
    }
}

extension KCAuthContext {
    /// The token for `token`, signing in first for kubectl when a person is there.
    public func kubectlLogin(_ profile: ResolvedProfile, kubectl: Bool) -> KubectlLogin {
        KubectlLogin(context: self, profile: profile, kubectl: kubectl)
    }
}
