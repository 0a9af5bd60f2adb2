import KCAuthCore

/// `kcauth status`: every profile's session, judged locally (no network), with the command that
/// fixes a broken one. Modelled on `gh auth status`: one entry per profile, the selected one
/// decides the exit status.
public struct Status: Sendable {
    public enum State: Sendable, Equatable {
        case valid
        case refreshable
        case loginRequired(reason: String)
        /// The profile's store could not be read (locked, no Secret Service, not responding).
        case storageUnavailable(KCAuthError)

        init(_ health: SessionHealth) {
            switch health {
            case .valid: self = .valid
            case .refreshable: self = .refreshable
            case .loginRequired(let reason): self = .loginRequired(reason: reason)
            }
        }

        /// The name used in JSON output (documented in README, never renamed).
        public var code: String {
            switch self {
            case .valid: return "valid"
            case .refreshable: return "refreshable"
            case .loginRequired: return "login_required"
            case .storageUnavailable: return "storage_unavailable"
            }
        }

        public var isUsable: Bool { self == .valid || self == .refreshable }
    }

    public struct Entry: Sendable, Equatable {
        public var profile: String
        public var selected: Bool
        /// The stored session's issuer and client, else the profile's settings.
        public var issuer: String?
        public var clientID: String?
        public var user: String?
        public var state: State
        public var accessTokenExpiresAt: Instant?
        public var refreshTokenExpiresAt: Instant?
        /// The store's name; nil when it could not be chosen.
        public var storage: String?
        /// Whether the store is open and until when (the encrypted store), for people.
        public var storageState: EncryptedStoreState?
        /// What makes the profile usable again; nil when it is usable.
        public var fix: Fix?
        /// How the profile's client authenticates (where its credential comes from, never the
        /// credential); `.none` for a public client.
        public var clientAuth: ClientAuthenticationSetting = .none
        /// A DPoP session's key and whether the provider bound the session (RFC 9449 §5:
        /// `token_type` DPoP). Never the key.
        public var dpop: DPoPBinding?
    }

    /// What fixes a profile, as facts for the presenter.
    public enum Fix: Sendable, Equatable {
        /// Sign in; `needsSettings`: the profile has no issuer or client id yet.
        case signIn(needsSettings: Bool)
        /// The store could not be read: what its error says.
        case storage(KCAuthError)
    }

    public struct Report: Sendable, Equatable {
        public var selectedProfile: String
        public var entries: [Entry]
        public var selected: Entry { entries.first { $0.selected }! }
    }

    let config: ConfigDocument
    let store: @Sendable (String) throws -> any SecretStore
    let clock: any TimeSource

    public init(config: ConfigDocument, store: @escaping @Sendable (String) throws -> any SecretStore, clock: any TimeSource) {
        self.config = config
        self.store = store
        self.clock = clock
    }

    /// Profiles in the order of the configuration file; the selected one first if the file does
    /// not name it (the implicit `default`).
    public func run(selected: String) -> Report {
        var names = config.profileNames
        if !names.contains(selected) { names.insert(selected, at: 0) }
        // A keyring that is missing, locked or hung fails every profile alike: ask it once,
        // rather than wait out its deadline once per profile.
        var broken: [String: KCAuthError] = [:]
        return Report(selectedProfile: selected, entries: names.map { entry($0, selected: $0 == selected, broken: &broken) })
    }

    func entry(_ profile: String, selected: Bool, broken: inout [String: KCAuthError]) -> Entry {
        var entry = Entry(profile: profile, selected: selected,
                          issuer: config.value("issuer", profile: profile), clientID: config.value("client_id", profile: profile),
                          user: nil, state: .valid, storage: nil)
        entry.clientAuth = ((try? ClientAuthenticationSetting.read(config, profile: profile, path: "")) ?? nil) ?? .none
        do {
            let store = try self.store(profile)
            entry.storage = store.name
            entry.storageState = (store as? any StoreStateDescribing)?.encryptedState
            if let known = broken[store.name] { throw known }
            let read: String?
            do { read = try store.read(profile: profile) } catch let error as KCAuthError where error.code.isStorageFailure {
                broken[store.name] = error
                throw error
            }
            guard let secret = read else {
                entry.state = .loginRequired(reason: "not logged in")
                entry.fix = .signIn(needsSettings: entry.issuer == nil || entry.clientID == nil)
                return entry
            }
            let state = try AuthState.decode(secret, profile: profile)
            entry.issuer = state.issuer
            entry.clientID = state.clientID
            entry.user = (state.idToken.flatMap(IdentityClaims.init(unverifiedToken:))?.filling(from: state.userinfo)
                ?? state.serviceAccountClaims)?.displayName
            entry.accessTokenExpiresAt = state.expiresAt
            entry.dpop = DPoPBinding(state)
            entry.refreshTokenExpiresAt = state.refreshExpiresAt
            entry.state = State(SessionHealth.of(state, now: clock.instant))
        } catch let error as KCAuthError where error.code == .loginRequired {
            entry.state = .loginRequired(reason: error.message)  // an unreadable stored state
            if case .keptInMemoryOnly? = error.problem { (entry.storage, entry.storageState) = (StorageKind.memory.rawValue, nil) }
        } catch {
            let error = KCAuthError.wrapping(error)
            entry.state = .storageUnavailable(error)
            entry.fix = .storage(error)
            return entry
        }
        if case .loginRequired = entry.state, entry.fix == nil { entry.fix = .signIn(needsSettings: false) }
        return entry
    }

}
