import KCAuthCore

/// `kcauth logout`: one profile or all, the provider asked to end each session (unless local),
/// the stored session deleted and its runtime copy dropped (`SessionEnd`, per profile), and
/// with `forget` the profile's settings removed.
public struct Logout: Sendable {
    public struct Options: Sendable, Equatable {
        /// Every profile of the configuration file instead of the selected one.
        public var all: Bool
        /// Only the local copy: the provider is not contacted.
        public var local: Bool
        /// Also delete the profile's settings.
        public var forget: Bool
        /// RP-initiated logout in the browser too, waiting this long for it.
        public var browserTimeout: Double?

        public init(all: Bool = false, local: Bool = false, forget: Bool = false, browserTimeout: Double? = nil) {
            self.all = all
            self.local = local
            self.forget = forget
            self.browserTimeout = browserTimeout
        }
    }

    public enum Event: Sendable {
        case browser(profile: String, SessionEnd.Event)
        /// One profile is done (whatever the provider said).
        case signedOut(Outcome)
        /// `forget`: the profile's settings are gone; `wasDefault`: it was `default_profile`.
        case forgot(profile: String, wasDefault: Bool)
        case nothingConfigured(path: String)
    }

    /// What one profile's logout came to.
    public typealias Outcome = SessionEnd.Outcome

    public struct Failure: Sendable, Equatable {
        public var profile: String
        public var error: KCAuthError
    }

    let context: KCAuthContext

    init(context: KCAuthContext) { self.context = context }

    /// `selected` is the profile flag (ignored with `all`). Returns the profiles that did not
    /// sign out cleanly; the others are signed out even when one fails.
    public func run(selected: String?, _ options: Options, notify: @escaping @Sendable (Event) -> Void) throws -> [Failure] {
        let resolver = try context.resolver()  // a malformed file stops here, before anything is deleted
        let config = try context.config()
        let profiles = options.all ? config.profileNames : [try resolver.profile(selected).value]
        if profiles.isEmpty { notify(.nothingConfigured(path: context.settings.path)) }
        var failures: [Failure] = []
        for name in profiles {
            do {
                let profile = try resolver.resolve(SettingsFlags(profile: name))
                let outcome = try signOut(profile, options, notify: notify)
                notify(.signedOut(outcome))
                if options.forget { try forget(name, notify: notify) }
                if let failure = outcome.failure { failures.append(Failure(profile: name, error: failure)) }
            } catch let error as KCAuthError where options.all {
                failures.append(Failure(profile: name, error: error))  // the other profiles are still signed out
            }
        }
        return failures
    }

    private func signOut(_ profile: ResolvedProfile, _ options: Options, notify: @escaping @Sendable (Event) -> Void) throws -> Outcome {
        // Before the store changes, and again after: no runtime copy may outlive the logout, in
        // this environment's cache or any other's (the session mark is by uid).
        context.retireSession(profile)
        defer { context.retireSession(profile) }
        let a = context.adapters
        // A profile whose last sign-in kept its session in memory only has nothing stored to
        // end where its store holds nothing or cannot be read (no keyring in a CI job): it was
        // not signed in. From now on it is simply signed out.
        defer { a.memorySignIns.forget(profile: profile.name) }
        let kind = profile.storage.value
        var store = MemorySignInNoting(store: context.store(kind), kind: kind, notes: a.memorySignIns)
        store.signingOut = true
        let http = context.http(for: profile)
        let browser = options.browserTimeout.map { SessionEnd.BrowserOptions(port: profile.port.value, timeout: $0) }
        return try SessionEnd(store: store, lock: context.lock(for: profile), http: { http },
                          random: a.random, opener: context.opener, receiver: a.receiver("/logged-out"), clock: a.clock)
            .authenticating(with: { [clientAuth = profile.clientAuth.value, context] state in
                // Unreadable credentials: the request goes out as a public client's and the
                // provider's refusal is reported like any other.
                guard clientAuth.isConfidential,
                      let authentication = try? clientAuth.resolveWithoutDiscovery(context.credentialPorts, issuer: state.issuer) else { return nil }
                return ClientAuthenticator(clientID: state.clientID, authentication: authentication, clock: a.clock, random: a.random)
            })
            .run(profile: profile.name, options: SessionEnd.Options(serverSide: !options.local, browser: browser)) {
                notify(.browser(profile: profile.name, $0))
            }
    }

    /// The profile's section goes, and `default_profile` too if it names the profile (a default
    /// that points nowhere would only confuse the next command).
    private func forget(_ profile: String, notify: (Event) -> Void) throws {
        let settings = context.settings
        var config = try settings.load()
        let removed = config.removeProfile(profile)
        let wasDefault = (try? config.defaultProfile(path: settings.path)) == profile
        if wasDefault { config.set(ConfigDocument.defaultProfileKey, nil, profile: nil) }
        guard removed || wasDefault else { return }
        try settings.save(config)
        notify(.forgot(profile: profile, wasDefault: wasDefault))
    }
}
