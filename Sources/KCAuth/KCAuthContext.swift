import FoundationEssentials
import KCAuthContract
import KCAuthCore
import KCAuthSystem

/// The composition root shared by the `kcauth` command and the `KCAuth` library: the one place
/// that wires use cases to adapters. Production passes `Adapters.system()`, tests pass fakes
/// (`KCAuthTestSupport`), and both run the same graph.
///
/// The configuration file is read at most once per context (`resolver()`), so a command that
/// resolves several profiles (status, `logout --all`) still reads it once.
public final class KCAuthContext: Sendable {
    public let adapters: Adapters
    private let configuration = Once<Result<ConfigDocument, KCAuthError>>()
    private let directoryChoice = Once<Result<DirectoryChoice?, KCAuthError>>()
    /// The announced forward's use on this host (``ForwardedToken/use``), decided once.
    let forwardUse = Once<ForwardedToken.Use>()

    public init(adapters: Adapters) { self.adapters = adapters }

    public convenience init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(adapters: .system(environment: environment))
    }

    public var environment: [String: String] { adapters.environment }
    public var clock: any TimeSource { adapters.clock }
    public var settings: any SettingsStore { adapters.settings }

    /// The configuration file, parsed; read on first use only. Keys kcauth does not read are
    /// told then (``Adapters/unknownConfigKeys``): they are never used, so a typo is said, not obeyed.
    public func config() throws -> ConfigDocument {
        try configuration.value {
            Result {
                let doc = try adapters.settings.load()
                let unknown = doc.unknownKeys()
                if !unknown.isEmpty { adapters.unknownConfigKeys(adapters.settings.path, unknown) }
                return doc
            }.mapError(KCAuthError.wrapping)
        }.get()
    }

    /// Settings resolution over the configuration file (read once). `tolerant`: a broken file
    /// is ignored (doctor reports it) rather than thrown.
    public func resolver(tolerant: Bool = false) throws -> SettingsResolver {
        let config: ConfigDocument?
        do { config = try self.config() } catch where tolerant { config = nil }
        return SettingsResolver(environment: adapters.environment, config: config, configPath: adapters.settings.path,
                                workingDirectory: adapters.workingDirectory,
                                directoryProfile: { [self] in try self.directoryProfile().map { ($0.name, $0.path) } })
    }

    /// The profile the working directory names (`.kcauth-profile`), looked for and warned about
    /// once per context, and only when asked (neither `--profile` nor `KCAUTH_PROFILE`
    /// decides), as the front does. A file that names a profile the configuration lacks stops
    /// the command (`loginRequired`), as pyenv's `.python-version` naming a version that is not
    /// installed does: going on with another profile would hand a project's tools another
    /// profile's token. `default` always exists, as for `kcauth use`.
    public func directoryProfile() throws -> DirectoryChoice? {
        try directoryChoice.value {
            switch DirectoryProfile.find(from: adapters.workingDirectory) {
            case .none:
                return .success(nil)
            case .ignored(let path, .refused(let refusal)):
                let refused = FileRefusalText.error(.configuration, path: path, refusal, fix: "chmod go-w \(path)")
                adapters.warn(refused.message + "; the profile it names is not used")
                return .success(nil)
            case .ignored(let path, .notAProfileName):
                adapters.warn("ignoring \(path): it does not hold one profile name (letters, digits, '.', '_', '-')")
                return .success(nil)
            case .named(let name, let path):
                // Only one of the user's own profiles: the file carries no settings.
                let config: ConfigDocument
                do { config = try self.config() } catch { return .failure(KCAuthError.wrapping(error)) }
                guard name == ProfileName.defaultName || config.profileNames.contains(name) else {
                    return .failure(KCAuthError(.loginRequired, "\(path) names profile '\(name)', which is not in \(adapters.settings.path)",
                                                remedy: .createProfileOrChangeFile(profile: name, file: path)))
                }
                return .success(DirectoryChoice(name: name, path: path))
            }
        }.get()
    }

    public func resolve(_ flags: SettingsFlags = SettingsFlags()) throws -> ResolvedProfile {
        try resolver().resolve(flags)
    }

    // MARK: Adapters for a profile

    public func store(_ kind: StorageKind, warn: @escaping @Sendable (String) -> Void = { _ in }) -> any SecretStore {
        traced(adapters.secretStore(kind, warn))
    }

    // MARK: The trace (`--debug`): a layer around the seams only when it is on

    public var trace: any TraceSink { adapters.trace }

    func traced(_ store: any SecretStore) -> any SecretStore {
        trace.isOn ? TracingSecretStore(store, trace: trace, clock: adapters.clock) : store
    }

    func traced(_ transport: any HTTPTransport) -> any HTTPTransport {
        trace.isOn ? TracingTransport(transport, trace: trace, clock: adapters.clock) : transport
    }

    /// The browser launcher, traced when the trace is on.
    public var opener: any URLOpener {
        trace.isOn ? TracingOpener(adapters.opener, trace: trace, clock: adapters.clock) : adapters.opener
    }

    /// The profile's store, saying so when its last sign-in kept the session in memory only.
    public func store(for profile: ResolvedProfile) -> any SecretStore { noting(store(profile.storage.value), profile.storage.value) }

    /// `store` (of `kind`), keeping the note of a memory-only sign-in (``MemorySignInNoting``).
    func noting(_ store: any SecretStore, _ kind: StorageKind) -> any SecretStore {
        MemorySignInNoting(store: store, kind: kind, notes: adapters.memorySignIns)
    }

    public func http(caFile: String?) -> OAuthHTTP { OAuthHTTP(traced(adapters.transport(caFile)), trace: trace) }

    public func http(for profile: ResolvedProfile) -> OAuthHTTP { http(caFile: profile.caFile?.value) }

    public func lock(for profile: ResolvedProfile) -> any ProfileLock {
        let lock = adapters.lock(profile.storage.value)
        return trace.isOn ? TracingProfileLock(lock, trace: trace, clock: adapters.clock) : lock
    }

    /// Where a confidential client's credentials are fetched: variables and files, a CI
    /// platform's ID-token service (the system's CAs: the provider's `ca_file` is the
    /// provider's), a program; the last two made when first used.
    public var credentialPorts: CredentialPorts {
        CredentialPorts(reader: adapters.credentials, platform: { [self] in traced(adapters.transport(nil)) },
                        commands: { [adapters] in adapters.assertionCommands })
    }

    /// A memory session lives only inside one `login`: no runtime copy may stand in for it.
    func tokenCache(for kind: StorageKind) -> (any TokenCache)? { kind == .memory ? nil : adapters.tokenCache }

    // MARK: Use cases

    /// The profile's token source; libcurl is set up only if a refresh is needed.
    public func tokenProvider(_ profile: ResolvedProfile) -> TokenProvider {
        let clock = adapters.clock
        let caFile = profile.caFile?.value
        let clientAuth = profile.clientAuth.value
        let issuer = profile.issuer?.value
        return TokenProvider(profile: profile.name, store: store(for: profile), clock: clock, lock: lock(for: profile),
                             cache: tokenCache(for: profile.storage.value), binding: profile.cacheBinding, trace: trace,
                             refresher: { [adapters, credentialPorts, self] in
                                 // A confidential client's credentials are read only when a request needs them
                                 // (a platform's assertion when the request is sent, under the refresh lock).
                                 TokenRefresher(http: http(caFile: caFile), clock: clock,
                                                authentication: try clientAuth.resolveWithoutDiscovery(credentialPorts, issuer: issuer),
                                                random: adapters.random)
                             })
    }

    /// Forget the runtime copy of a profile's access token.
    public func invalidateCachedToken(profile: String) {
        adapters.tokenCache?.remove(profile: profile)
    }

    /// The profile's session is over: no cached copy of it is served again, in any environment.
    public func retireSession(_ profile: ResolvedProfile) {
        adapters.tokenCache?.retire(profile: profile.name, session: nil, binding: profile.cacheBinding)
    }

    /// `kcauth login` for the profile these flags select (first run may complete it).
    public func login(_ flags: SettingsFlags) throws -> Login { try Login(context: self, flags: flags) }

    /// The client signs in as itself; `login` chooses it for a client-credentials profile.
    public func clientLogin(_ profile: ResolvedProfile) -> ClientLogin { ClientLogin(context: self, profile: profile) }

    /// The one sign-in of a session across processes: the profile's, in its store, with the
    /// provider and client of `target`. A waiter waits up to the profile's login timeout and a
    /// minute more (the holder's flow has that deadline too).
    public func oneSignIn(_ profile: ResolvedProfile, target: LoginTarget) -> OneSignIn {
        let lock = adapters.signInLock(profile.storage.value)
        return OneSignIn(lock: trace.isOn ? TracingSignInLock(lock, trace: trace, clock: adapters.clock) : lock,
                         session: SecretKey(profile: profile.name, issuer: target.issuer, clientID: target.clientID),
                         clock: adapters.clock, waitLimit: profile.timeout.value + 60)
    }

    public func logout() -> Logout { Logout(context: self) }

    public func profiles() -> Profiles { Profiles(context: self) }

    public func use() -> Use { Use(context: self) }

    public func whoAmI(_ profile: ResolvedProfile) -> WhoAmI {
        let kind = profile.storage.value
        let store = store(for: profile)
        let online = WhoAmI.Online(tokens: tokenProvider(profile), http: { [self] in http(for: profile) }, lock: lock(for: profile),
                                   writer: SessionWriter(store: store, storage: kind, cache: tokenCache(for: kind)))
        return WhoAmI(store: store, clock: adapters.clock, online: online)
    }

    /// `kcauth prompt`, in a context of its own whose warnings go nowhere: a prompt shows no error.
    public func glance() -> Glance {
        var quiet = adapters
        quiet.warn = { _ in }
        return Glance(context: KCAuthContext(adapters: quiet))
    }

    /// Every profile's state; the selected one decides the exit status.
    public func status(selected: ResolvedProfile) throws -> Status.Report {
        let resolver = try self.resolver()
        return Status(config: try config(), store: { [self] name in
            // status reports a locked keyring; it never pops up the unlock dialog.
            self.store(for: try resolver.resolve(SettingsFlags(profile: name))).withoutUnlockPrompts()
        }, clock: adapters.clock).run(selected: selected.name)
    }
}
