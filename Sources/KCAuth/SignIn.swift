import KCAuthCore

/// `kcauth login` as a use case: the flow (`Login`), then one write of the new session
/// (`SessionWriter`: cache, secret, settings), with the move between stores when the profile's
/// storage changed. The CLI parses and presents; a Swift program gets the same login.
public struct SignIn: Sendable {
    public struct Options: Sendable, Equatable {
        /// Which flow, and whether a browser launcher that fails hands over to the device flow.
        public var flow: FlowChoice
        /// Start a browser (false: only show the URL).
        public var openBrowser: Bool
        /// The flow to remember in the profile (a flag replaces the saved one).
        public var rememberedFlow: LoginFlow?
        /// The one-off authorization parameters of this login (the sticky ones are the profile's).
        public var authorization = AuthorizationParameters()

        public init(flow: FlowChoice, openBrowser: Bool = true, rememberedFlow: LoginFlow? = nil,
                    authorization: AuthorizationParameters = AuthorizationParameters()) {
            self.authorization = authorization
            self.flow = flow
            self.openBrowser = openBrowser
            self.rememberedFlow = rememberedFlow
        }
    }

    /// Progress for the person: the flow's events, and what happened to an old copy of the
    /// session in the store the profile left.
    public enum Event: Sendable {
        case flow(Login.Event)
        case movedStore(from: String, to: StorageKind)
        case oldCopyNotRemoved(from: String, KCAuthError)
        /// A store's warning (the plaintext file store says what it is).
        case warning(String)
    }

    public struct Output: Sendable {
        public var state: AuthState
        public var claims: IDTokenClaims
        public var storage: StorageKind
        public var notice: Login.Notice? = nil
    }

    let context: KCAuthContext
    let profile: ResolvedProfile

    init(context: KCAuthContext, profile: ResolvedProfile) {
        self.context = context
        self.profile = profile
    }

    public func run(_ options: Options, notify: @escaping @Sendable (Event) -> Void) throws -> Output {
        guard let issuer = profile.issuer?.value else {
            throw KCAuthError(.usage, "no issuer for profile '\(profile.name)'", hint: nil)
        }
        guard let clientID = profile.clientID?.value else {
            throw KCAuthError(.usage, "no client id for profile '\(profile.name)'", hint: nil)
        }
        let kind = profile.storage.value
        let store = storeMovingFrom(previous: previousStore(kind), kind: kind, notify: notify)
        var remember = ProfileSettings(issuer: issuer, clientID: clientID, scope: profile.scope.value,
                                       port: profile.port.value == 0 ? nil : profile.port.value, caFile: profile.caFile?.value,
                                       storage: kind == .file || kind == .encrypted ? kind : nil,  // the keyring is the default; memory never sticks
                                       flow: options.rememberedFlow, browserCommand: profile.browserCommand?.value.text)
        profile.rememberLoginSettings(in: &remember)
        let writer = SessionWriter(store: store, storage: kind, cache: context.tokenCache(for: kind),
                                   settings: kind == .memory ? nil : context.settings, remember: kind == .memory ? nil : remember)
        let a = context.adapters
        let login = Login(http: context.http(for: profile), clock: a.clock, random: a.random, store: store,
                          opener: a.opener, receiver: a.receiver("/callback"), sleeper: a.sleeper, writer: writer,
                          paste: a.lineInput)
            .reading(credentials: a.credentials)
        var input = Login.Input(profile: profile.name, issuer: issuer, clientID: clientID, scope: profile.scope.value,
                                port: profile.port.value, timeout: profile.timeout.value, openBrowser: options.openBrowser,
                                flow: options.flow.flow, fallBackToDevice: options.flow.fallsBackToDevice,
                                browserCommand: profile.browserCommand?.value)
        input.authorization = profile.authorizationParameters(oneOff: options.authorization)
        input.clientAuth = profile.clientAuth.value
        input.dpop = profile.dpop.value
        input.par = profile.par.value
        let output = try login.run(input) { notify(.flow($0)) }
        return Output(state: output.state, claims: output.claims, storage: kind, notice: output.notice)
    }

    /// The other persistent store may hold an old copy: a file left by `--storage file`
    /// (unlinking a missing file costs nothing), or the keyring item of a profile that was on
    /// the keyring until now (not probed for profiles already on file: no keyring needed).
    /// A profile saved on the encrypted store moving elsewhere leaves its sealed file behind
    /// unless removed the same way (removing needs no passphrase).
    func previousStore(_ kind: StorageKind) -> (any SecretStore)? {
        let saved = profile.saved.storage ?? .keyring
        switch kind {
        case .keyring: return context.store(saved == .encrypted ? .encrypted : .file)
        case .file: return saved == .file ? nil : context.store(saved)
        case .encrypted: return saved == .encrypted ? nil : context.store(saved)
        default: return nil  // memory is one-shot: the stored session, if any, is left alone
        }
    }

    func storeMovingFrom(previous: (any SecretStore)?, kind: StorageKind, notify: @escaping @Sendable (Event) -> Void) -> any SecretStore {
        let target = context.store(kind, warn: { notify(.warning($0)) })
        guard let previous else { return target }
        return MigratingSecretStore(target: target, previous: previous) { cleanup in
            switch cleanup {
            case .removed:
                notify(.movedStore(from: previous.name, to: kind))
            case .nothingThere:
                break
            case .failed(let error) where previous.name == StorageKind.keyring.rawValue && error.code == .storageUnavailable:
                break  // no keyring at all, so no old copy in it: the usual reason to choose a file
            case .failed(let error):
                notify(.oldCopyNotRemoved(from: previous.name, error))
            }
        }
    }
}
