import KCAuthCore
import KCAuthSystem

/// `token` run by kubectl as its exec credential plugin: kubectl says in `KUBERNETES_EXEC_INFO`
/// which ExecCredential version it reads and whether a person is there (`spec.interactive`). If
/// a person is there and the profile has no session, the profile signs in first, as a login
/// does — its progress for stderr, stdout stays the ExecCredential — as kubelogin's `get-token`
/// does; otherwise the "sign in" error stands (exit 4).
public struct KubectlLogin: Sendable {
    /// Progress of the sign-in, for the person.
    public enum Event: Sendable {
        /// This process signs in (it holds the profile's sign-in lock), with this flow.
        case signingIn(profile: String, flow: FlowChoice, openBrowser: Bool)
        /// Another process signs in to the profile: this one waits for it.
        case waiting(OneSignIn.Event)
        /// The sign-in's own progress.
        case signIn(SignIn.Event)
        /// Signed in; the token follows.
        case signedIn(SignIn.Output)
        /// Signed in as the client itself (a client-credentials profile).
        case clientSignedIn(ClientSignIn.Output)
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

    /// What kubectl said in the environment (nothing: not run by kubectl, not interactive).
    public static func execInfo(_ environment: [String: String]) throws -> KubernetesExecInfo {
        try KubernetesExecInfo(environmentValue: environment[KubernetesExecInfo.variable])
    }

    /// The token, after a sign-in when kubectl asks for one interactively and `personPresent`
    /// (a terminal on stdin or stderr: kubectl's word alone is not enough, a CI job may have
    /// copied an interactive kubeconfig). `prepare` completes the profile before the sign-in
    /// (the first run's questions, the store), as a login does.
    public func run(_ request: GetToken.Request, personPresent: Bool, prepare: (ResolvedProfile) throws -> ResolvedProfile,
                    notify: @escaping @Sendable (Event) -> Void) throws -> IssuedToken {
        // A version kubectl cannot take is an error before any keyring or network work.
        let info = kubectl ? try Self.execInfo(context.environment) : KubernetesExecInfo()
        do {
            return try context.getToken(profile).run(request)
        } catch let error as KCAuthError where error.code == .loginRequired {
            guard kubectl, info.interactive, personPresent else { throw error }
            try signIn(prepare: prepare, notify: notify)
            // The sign-in saved the profile's settings: resolve them again for the new session.
            return try context.getToken(context.resolve(SettingsFlags(profile: profile.name))).run(request)
        }
    }

    private func signIn(prepare: (ResolvedProfile) throws -> ResolvedProfile, notify: @escaping @Sendable (Event) -> Void) throws {
        let profile = try prepare(try context.resolve(SettingsFlags(profile: profile.name)))
        if profile.usesClientCredentials {
            return notify(.clientSignedIn(try context.clientSignIn(profile).run { notify(.signIn($0)) }))
        }
        let environment = context.environment
        let remembered = profile.saved.flow
        let flow = FlowSelector.choose(flag: nil, environmentSetting: profile.flow?.source == .environment ? profile.flow?.value : nil,
                                       profile: remembered, qrRequested: false, noBrowser: false, environment: environment,
                                       browserCommand: profile.browserCommand != nil, wsl: WSLProbe().isWSL(environment: environment))
        // Over SSH without a display a browser started here opens far away: paste-back instead.
        let openBrowser = !FlowSelector.browserIsRemote(environment)
        let signIn = {
            notify(.signingIn(profile: profile.name, flow: flow, openBrowser: openBrowser))
            notify(.signedIn(try context.signIn(profile).run(SignIn.Options(flow: flow, openBrowser: openBrowser, rememberedFlow: remembered)) {
                notify(.signIn($0))
            }))
        }
        // A memory session is this process's alone: nothing to wait for, nothing to share.
        if profile.storage.value == .memory { return try signIn() }
        // One sign-in in flight per profile: a caller that finds one in progress waits for it
        // rather than opening a second browser, and then uses the session it stored.
        let signedIn = { context.currentSession(profile).find(oneOff: AuthorizationParameters(), rememberedFlow: remembered) != nil }
        for _ in 0..<2 {
            switch try context.oneSignIn(profile).run(force: false, notify: { notify(.waiting($0)) }, stillNeeded: { !signedIn() },
                                                       signIn: signIn) {
            case .signedIn, .notNeeded: return
            case .signedInElsewhere: if signedIn() { return }
            }
            // It stored a session other than the one asked for (other settings): a person is
            // here, so sign in now that nobody else does.
        }
        throw KCAuthError(.loginRequired, "no session for profile '\(profile.name)' after the other sign-in", remedy: .signIn(profile: profile.name))
    }
}

extension KCAuthContext {
    /// The token for `token`, signing in first for kubectl when a person is there.
    public func kubectlLogin(_ profile: ResolvedProfile, kubectl: Bool) -> KubectlLogin {
        KubectlLogin(context: self, profile: profile, kubectl: kubectl)
    }
}
