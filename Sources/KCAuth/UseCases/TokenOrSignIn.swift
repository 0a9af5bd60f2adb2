import KCAuthCore

/// `kcauth token`: the profile's token from its ``TokenProvider``, and a sign-in first only
/// where one may start — kubectl runs `token` as its exec credential plugin, says in
/// `KUBERNETES_EXEC_INFO` that a person can answer (`spec.interactive`), and one is at a
/// terminal (docs/commands.md "Who may open a browser"). The sign-in is `login`'s — its progress
/// for stderr, stdout stays the ExecCredential — as kubelogin's `get-token` does; every other
/// caller gets the "sign in" error (exit 4). A DPoP-bound token's proofs are made with the
/// session's key (``Output/prover``).
public struct TokenOrSignIn: Sendable {
    public struct Output: Sendable {
        public var token: IssuedToken
        /// The sign-in that came first; nil when the stored session served.
        public var signedIn: Login.Result?
        /// The maker of DPoP proofs (RFC 9449 §4) for `token`, with the key of the session it
        /// came from, read from the store only when called (for a DPoP-bound token only).
        public var prover: @Sendable () throws -> DPoPProver
    }

    let context: KCAuthContext
    let profile: ResolvedProfile
    /// The token is for kubectl (an ExecCredential answer): only then may a sign-in start.
    let kubectl: Bool

    public init(context: KCAuthContext, profile: ResolvedProfile, kubectl: Bool) {
        self.context = context
        self.profile = profile
        self.kubectl = kubectl
    }

    /// The token, after a sign-in when kubectl asks for one interactively and the caller is a
    /// person (``SignInCaller/personPresent``, a terminal on stdin or stderr: kubectl's word alone
    /// is not enough, a CI job may have copied an interactive kubeconfig). The sign-in is `login`'s (``Login``, in its kubectl
    /// mode): first-run questions when `canAsk`, the store offer, one sign-in per profile.
    public func run(_ request: TokenProvider.Request, caller: SignInCaller, canAsk: Bool,
                    offerEncryptedStore: (@Sendable (ResolvedProfile) throws -> Bool)? = nil,
                    notify: @escaping @Sendable (Login.Event) -> Void) throws -> Output {
        // A version kubectl cannot take is an error before any keyring or network work.
        let info = kubectl ? try KubernetesExecInfo(environment: context.environment) : KubernetesExecInfo()
        do {
            return output(try context.tokenProvider(profile).run(request), signedIn: nil, profile)
        } catch let error as KCAuthError where error.code == .loginRequired {
            guard kubectl, info.interactive, caller.personPresent else { throw error }
            let result = try context.login(SettingsFlags(profile: profile.name))
                .run(Login.Options(canAsk: canAsk, kubectl: true, offerEncryptedStore: offerEncryptedStore), notify: notify)
            // The sign-in saved the profile's settings: resolve them again for the new session.
            let signedIn = try context.resolve(SettingsFlags(profile: profile.name))
            return output(try context.tokenProvider(signedIn).run(request), signedIn: result, signedIn)
        }
    }

    private func output(_ token: IssuedToken, signedIn: Login.Result?, _ profile: ResolvedProfile) -> Output {
        Output(token: token, signedIn: signedIn, prover: { [context] in try context.dpopProver(profile) })
    }
}

extension KCAuthContext {
    /// `kcauth token` for the profile; `kubectl`: the answer is an ExecCredential.
    public func tokenOrSignIn(_ profile: ResolvedProfile, kubectl: Bool) -> TokenOrSignIn {
        TokenOrSignIn(context: self, profile: profile, kubectl: kubectl)
    }

    /// The maker of DPoP proofs with the key of the profile's stored session (RFC 9449 §4), read
    /// now: `loginRequired` when no session or no key is stored.
    public func dpopProver(_ profile: ResolvedProfile) throws -> DPoPProver {
        guard let secret = try store(for: profile).read(profile: profile.name) else {
            throw KCAuthError(.loginRequired, "not logged in (profile '\(profile.name)')", remedy: .signIn(profile: profile.name))
        }
        return try OAuthHTTP.prover(for: try AuthState.decode(secret, profile: profile.name), clock: clock, profile: profile.name)
    }
}
