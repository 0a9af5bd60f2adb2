import KCAuthCore

/// `kcauth login`: everything between the command line and the stored session.
/// 1. The profile is resolved; a profile that names no provider or client yet is completed by
///    asking the person (first run, `FirstRunQuestions`) when someone can answer.
/// 2. A client that signs in as itself goes to `ClientLogin` (RFC 6749 §4.4).
/// 3. A profile still signed in with these settings has nothing to do (`AlreadySignedIn`).
/// 4. Otherwise one sign-in per session across processes (`OneSignIn`): the flow
///    (`FlowDriver`), then one write of the new session (`SessionWriter`: cache, secret,
///    settings), with the move between stores when the profile's storage changed.
/// The CLI parses and presents; a Swift program gets the same login.
public struct Login: Sendable {
    public struct Options: Sendable {
        /// Start no browser, only show the URL (`--no-browser`).
        public var noBrowser: Bool
        /// Show the device flow's link as a QR code (and prefer the device flow).
        public var qr: Bool
        /// The one-off authorization parameters of this login (the sticky ones are the profile's).
        public var authorization: AuthorizationParameters
        /// Sign in even if the profile's session is still valid (and ask a sign-in in progress
        /// in another process to stop).
        public var force: Bool
        /// With the "already signed in" answer, the session's token too (the CLI's `-o`).
        public var wantsToken: Bool
        /// Someone reads the first-run questions (the CLI: stderr is a terminal); they are
        /// asked only when `Adapters.terminal` is interactive too.
        public var canAsk: Bool
        /// kubectl needs a token (`kcauth token -o exec-credential` found no session): a found
        /// session is used silently, and `.signingInForKubectl` is said before the flow.
        public var kubectl: Bool
        /// Asked once the profile is complete, before anything is stored: whether the person
        /// takes the encrypted store instead of a keyring that is not there (`StoreOffer`).
        public var offerEncryptedStore: (@Sendable (ResolvedProfile) throws -> Bool)?

        public init(noBrowser: Bool = false, qr: Bool = false, authorization: AuthorizationParameters = AuthorizationParameters(),
                    force: Bool = false, wantsToken: Bool = false, canAsk: Bool = false, kubectl: Bool = false,
                    offerEncryptedStore: (@Sendable (ResolvedProfile) throws -> Bool)? = nil) {
            self.noBrowser = noBrowser
            self.qr = qr
            self.authorization = authorization
            self.force = force
            self.wantsToken = wantsToken
            self.canAsk = canAsk
            self.kubectl = kubectl
            self.offerEncryptedStore = offerEncryptedStore
        }
    }

    /// The first-run questions, for the presenter to phrase.
    public enum Question: Sendable, Equatable {
        /// A Keycloak server URL or an issuer URL.
        case issuer
        /// The realm on the Keycloak server just given.
        case realm
        case clientID
    }

    /// Progress for the person: first-run questions, another process's sign-in, the flow's
    /// events, and what happened to an old copy of the session in the store the profile left.
    public enum Event: Sendable {
        /// First run: the profile has no provider (`issuer`) or no client id yet; questions follow.
        case firstRun(missingIssuer: Bool)
        /// First run: a question; the answer is read from `Adapters.terminal`.
        case question(Question)
        /// First run: the answer did not work (said, and the question asked again).
        case answerNotTaken(KCAuthError)
        /// First run: the provider's discovery document was found at this issuer.
        case providerFound(issuer: String)
        /// The profile has a session made with these settings: nothing to do.
        case alreadySignedIn(Found)
        /// Another process signs in to the profile, or was asked to stop (`force`).
        case otherSignIn(OneSignIn.Event)
        /// kubectl needs a token and the flow starts for it.
        case signingInForKubectl
        /// The flow is chosen (said before the flow's own events); `openBrowser`: a browser is
        /// started (false: the URL is only shown).
        case flowChosen(FlowChoice, openBrowser: Bool)
        case flow(FlowDriver.Event)
        case movedStore(from: String, to: StorageKind)
        case oldCopyNotRemoved(from: String, KCAuthError)
        /// A store's warning (the plaintext file store says what it is).
        case warning(String)
    }

    /// A person signed in.
    public struct Output: Sendable {
        public var state: AuthState
        public var claims: IDTokenClaims
        public var storage: StorageKind
        public var notice: FlowDriver.Notice? = nil
    }

    /// How the login ended.
    public enum Result: Sendable {
        case signedIn(Output)
        /// The client signed in as itself (client-credentials grant).
        case clientSignedIn(ClientLogin.Output)
        /// Nothing to do (said with `.alreadySignedIn` before); the session's token when
        /// `wantsToken` asked for it.
        case alreadySignedIn(token: IssuedToken?)
    }

    let context: KCAuthContext
    let flags: SettingsFlags
    /// The profile as resolved before first run completes it; its name never changes.
    public let profile: ResolvedProfile

    init(context: KCAuthContext, flags: SettingsFlags) throws {
        self.context = context
        self.flags = flags
        profile = try context.resolve(flags)
    }

    public func run(_ options: Options, notify: @escaping @Sendable (Event) -> Void) throws -> Result {
        var profile = try FirstRunQuestions(context: context, flags: flags, canAsk: options.canAsk).complete(self.profile, notify: notify)
        if try options.offerEncryptedStore?(profile) == true {
            profile.storage = Setting(.encrypted, .flag, origin: .answer)
        }
        let target = try profile.loginTarget()
        if profile.usesClientCredentials {
            return .clientSignedIn(try ClientLogin(context: context, profile: profile).run(notify: notify))
        }
        let session = AlreadySignedIn(context: context, profile: profile, options: options)
        // kubectl comes here because there is no usable session: it looks again only once it
        // holds the sign-in lock (another process may have signed in meanwhile).
        if !options.kubectl, !options.force, let found = try session.answer(notify: notify) { return found }
        let signIn = { Result.signedIn(try flow(profile, options, notify: notify)) }
        // A memory session is this process's alone: nothing to wait for, nothing to share.
        if profile.storage.value == .memory { return try signIn() }
        // One sign-in in flight per session (`SignInLock`: this profile, store, provider and
        // client): a caller that finds one in progress waits for it rather than opening a second
        // browser. The first-run questions came before: the lock covers the sign-in only.
        for _ in 0..<2 {
            var found: Result?
            let outcome = try context.oneSignIn(profile, target: target).run(
                force: options.force, notify: { notify(.otherSignIn($0)) },
                stillNeeded: {
                    guard !options.force else { return true }
                    found = try session.answer(notify: notify)
                    return found == nil
                }, signIn: signIn)
            switch outcome {
            case .signedIn(let result): return result
            case .notNeeded: if let found { return found }
            case .signedInElsewhere:
                // Another process signed in: this is the session to use, said as `login` says it.
                if let found = try session.answer(notify: notify) { return found }
            }
            // It stored a session other than the one asked for (other flags): a person asked
            // for this one, so sign in now that nobody else does.
        }
        throw KCAuthError(.loginRequired, "no session for profile '\(profile.name)' after the other sign-in", remedy: .signIn(profile: profile.name))
    }

    /// The flow itself, while this process holds the profile's sign-in lock.
    func flow(_ profile: ResolvedProfile, _ options: Options, notify: @escaping @Sendable (Event) -> Void) throws -> Output {
        if options.kubectl { notify(.signingInForKubectl) }
        let environment = context.environment
        let choice = Self.flowChoice(profile, options, environment: environment, wsl: context.adapters.wsl())
        // Over SSH without a display a browser started here opens far away: paste-back instead.
        let openBrowser = !options.noBrowser && !FlowSelector.browserIsRemote(environment)
        notify(.flowChosen(choice, openBrowser: openBrowser))
        context.trace.emit(TraceEvent("flow.chosen", ("profile", .text(profile.name)), ("flow", .text(choice.flow.rawValue)),
                                      ("why", .text(String(describing: choice.reason))), ("detail", .text(choice.detail ?? "-")),
                                      ("opens_browser", .flag(openBrowser)), ("falls_back_to_device", .flag(choice.fallsBackToDevice))))
        let target = try profile.loginTarget()
        let kind = profile.storage.value
        let store = StoreMove(context: context, profile: profile).store(kind, notify: notify)
        var remember = ProfileSettings(issuer: target.issuer, clientID: target.clientID, scope: profile.scope.value,
                                       port: profile.port.value == 0 ? nil : profile.port.value, caFile: profile.caFile?.value,
                                       storage: kind == .file || kind == .encrypted ? kind : nil,  // the keyring is the default; memory never sticks
                                       flow: Self.rememberedFlow(profile), browserCommand: profile.browserCommand?.value.text)
        profile.rememberLoginSettings(in: &remember)
        let writer = SessionWriter(store: store, storage: kind, cache: context.tokenCache(for: kind),
                                   settings: kind == .memory ? nil : context.settings, remember: kind == .memory ? nil : remember)
        let a = context.adapters
        let driver = FlowDriver(http: context.http(for: profile), clock: a.clock, random: a.random, store: store,
                                opener: context.opener, receiver: a.receiver("/callback"), sleeper: a.sleeper, writer: writer,
                                paste: a.lineInput)
            .reading(credentials: context.credentialPorts)
        var input = FlowDriver.Input(profile: profile.name, issuer: target.issuer, clientID: target.clientID, scope: profile.scope.value,
                                     port: profile.port.value, timeout: profile.timeout.value, openBrowser: openBrowser,
                                     flow: choice.flow, fallBackToDevice: choice.fallsBackToDevice,
                                     browserCommand: profile.browserCommand?.value)
        input.authorization = profile.authorizationParameters(oneOff: options.authorization)
        input.clientAuth = profile.clientAuth.value
        input.dpop = profile.dpop.value
        input.par = profile.par.value
        let output = try driver.run(input) { notify(.flow($0)) }
        return Output(state: output.state, claims: output.claims, storage: kind, notice: output.notice)
    }
}

extension Login {
    /// The flow for this login, from the resolved `flow` setting (a flag, the environment, the
    /// profile) and what this machine can show (`FlowSelector`).
    static func flowChoice(_ profile: ResolvedProfile, _ options: Options, environment: [String: String], wsl: Bool) -> FlowChoice {
        let setting = profile.flow
        return FlowSelector.choose(flag: setting?.source == .flag ? setting?.value : nil,
                                   environmentSetting: setting?.source == .environment ? setting?.value : nil,
                                   profile: profile.saved.flow, qrRequested: options.qr, noBrowser: options.noBrowser,
                                   environment: environment, browserCommand: profile.browserCommand != nil, wsl: wsl)
    }

    /// The flow to keep in the profile: a flow flag replaces the saved one (`auto` clears it);
    /// the environment and `qr` are one-off.
    static func rememberedFlow(_ profile: ResolvedProfile) -> LoginFlow? {
        profile.flow?.source == .flag ? profile.flow?.value.flow : profile.saved.flow
    }
}
