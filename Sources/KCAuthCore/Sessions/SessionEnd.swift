/// The end of one profile's session, the mechanism under the `Logout` use case (module
/// `KCAuth`): ended at the provider (unless only the local copy should go), then the stored
/// session deleted. The local session is deleted whatever the provider answers: a user who logs
/// out must not keep usable tokens on disk because the network is down.
public struct SessionEnd: Sendable {
    public struct Options: Sendable, Equatable {
        /// False: only the local copy goes, with no request to the provider at all.
        public var serverSide: Bool
        /// RP-initiated logout in the browser as well.
        public var browser: BrowserOptions?

        public init(serverSide: Bool = true, browser: BrowserOptions? = nil) {
            self.serverSide = serverSide
            self.browser = browser
        }
    }

    public struct BrowserOptions: Sendable, Equatable {
        public var port: UInt16
        public var timeout: Double
        public init(port: UInt16 = 0, timeout: Double = 300) {
            self.port = port
            self.timeout = timeout
        }
    }

    public struct Outcome: Sendable, Equatable {
        public var profile: String
        /// The stored session's issuer; nil when nothing readable was stored.
        public var issuer: String?
        public var wasSignedIn: Bool
        /// A session was stored but could not be read, so it could not be ended at the provider.
        public var unreadable = false
        public var browser: LogoutStep?
        public var endSession: LogoutStep?
        public var revocation: LogoutStep?
        public var deleted = false
        public var serverSideRequested = false
        /// When the stored refresh token expires, if known: how long a session the provider
        /// could not be asked to end stays usable.
        public var refreshExpiresAt: Instant?
        /// The refresh lock could not be taken, so the session was ended without it.
        public var lockProblem: KCAuthError?

        /// The provider confirmed the end: back-channel, revocation, or the browser came back
        /// through the post-logout redirect (RP-initiated logout ends the session there).
        public var serverSessionEnded: Bool {
            endSession?.confirmed == true || revocation?.confirmed == true || browser?.confirmed == true
        }

        /// Nothing failed, but the provider offers no way to end the session from here (no
        /// end-session or revocation endpoint, or one that refuses the request): the local
        /// logout is complete, and the session at the provider runs out by itself.
        public var providerCannotEndSession: Bool {
            guard wasSignedIn, serverSideRequested, !unreadable, !serverSessionEnded else { return false }
            return [endSession, revocation].allSatisfy { step in
                switch step {
                case .notOffered?, .unsupported?, nil: return true
                default: return false
                }
            }
        }

        /// What to exit with once the outcome has been shown; nil when everything asked for happened.
        public var failure: KCAuthError? {
            guard wasSignedIn, serverSideRequested else { return nil }
            if unreadable {
                return KCAuthError(.invalidResponse, "deleted the unreadable stored session of profile '\(profile)'; it could not be ended at the provider")
            }
            if !serverSessionEnded, !providerCannotEndSession {
                let cause = [endSession, revocation].compactMap { step -> KCAuthError? in
                    if case .failed(let e)? = step { return e } else { return nil }
                }.first
                let what = cause == nil ? "the provider did not end the session" : "the provider could not be reached"
                return KCAuthError(cause?.code ?? .provider,
                                   "signed out locally, but \(what): the server session of profile '\(profile)' may still be alive",
                                   hint: "it ends when it expires; to end it now, sign out in the provider's account console",
                                   cause: cause?.message)
            }
            if case .failed(let error)? = browser {
                return KCAuthError(error.code, "signed out, but the sign-out in the browser did not finish (\(error.message)): the browser may still be signed in at the provider")
            }
            return nil
        }
    }

    /// Progress of a logout in the browser, for the person at the terminal.
    public enum Event: Sendable {
        case openingBrowser
        /// No browser started; `url` is for the user to open by hand (it holds the ID token).
        case browserFailed(KCAuthError, url: WireText)
        case waiting(redirectURI: String, timeout: Double)
    }

    let store: any SecretStore
    let lock: any ProfileLock
    /// Built only when the provider is asked, so a local-only logout never initialises libcurl.
    let http: @Sendable () -> OAuthHTTP
    let browser: BrowserLogout
    /// A confidential client's authenticator for the session being ended (RFC 7009 §2.1:
    /// a confidential client authenticates its revocation request).
    var authenticator: @Sendable (AuthState) -> ClientAuthenticator? = { _ in nil }
    /// For the DPoP proofs of a bound session's requests (their `iat`, RFC 9449 §4.2).
    var clock: (any TimeSource)?
    let random: any RandomSource

    public init(store: any SecretStore, lock: any ProfileLock, http: @escaping @Sendable () -> OAuthHTTP,
                random: any RandomSource, opener: any URLOpener, receiver: any RedirectReceiver, clock: (any TimeSource)? = nil) {
        self.clock = clock
        self.random = random
        self.store = store
        self.lock = lock
        self.http = http
        browser = BrowserLogout(random: random, opener: opener, receiver: receiver)
    }

    public func run(profile: String, options: Options, notify: (Event) -> Void = { _ in }) throws -> Outcome {
        var outcome = Outcome(profile: profile, wasSignedIn: false, serverSideRequested: options.serverSide)
        guard let first = try store.read(profile: profile) else { return outcome }
        outcome.wasSignedIn = true
        let firstState = try? AuthState.decode(first, profile: profile)
        outcome.issuer = firstState?.issuer
        outcome.refreshExpiresAt = firstState?.refreshExpiresAt

        // The browser waits for a person, so it runs outside the lock, which `kcauth token` in
        // other processes needs for refreshing.
        if options.serverSide, let b = options.browser, let state = try? AuthState.decode(first, profile: profile) {
            outcome.browser = browser.run(state, port: b.port, timeout: b.timeout, profile: profile, notify: notify)
        }
        // Under the session's refresh lock, so no refresh can store new tokens after the delete,
        // and with the state read again: a refresh that finished meanwhile rotated the refresh
        // token, and the newest one is the one to revoke. A sign-in with another provider or
        // client may have replaced the session meanwhile: then that session's lock is taken
        // (`only`: the session the lock is held for; the key of another is returned, nothing done).
        func endAndDelete(only: SecretKey?) throws -> SecretKey? {
            guard let secret = try store.read(profile: profile) else { return nil }
            let state = try? AuthState.decode(secret, profile: profile)
            if let only, let state, SecretKey(profile: profile, session: state) != only {
                return SecretKey(profile: profile, session: state)
            }
            outcome.unreadable = state == nil
            if options.serverSide, let state {
                outcome.issuer = state.issuer
                outcome.refreshExpiresAt = state.refreshExpiresAt
                // A bound session's refresh token is refused without a proof from its key (RFC 9449
                // §5); an unreadable key leaves the requests without one, and the provider says no.
                var http = http()
                if let clock, let proving = try? http.proving(session: state, clock: clock, random: random) { http = proving }
                (outcome.endSession, outcome.revocation) = ServerLogout(http: http, authenticator: authenticator(state)).run(state)
            }
            outcome.deleted = try store.delete(profile: profile)
            return nil
        }
        // A session nobody can read is refreshed by nobody: any lock of the profile will do.
        var key = firstState.map { SecretKey(profile: profile, session: $0) } ?? SecretKey(profile: profile, issuer: "", clientID: "")
        // A lock that cannot be had (no place for it, a hung holder) must not keep a session
        // alive that the user wants ended: then the session is ended and deleted without it.
        var locked = false
        do {
            for attempt in 0..<3 {
                locked = false
                var replaced: SecretKey?
                try lock.withLock(key, timeout: SessionWriter.lockTimeout) {
                    locked = true
                    replaced = try endAndDelete(only: attempt < 2 ? key : nil)
                }
                guard let replaced else { break }
                key = replaced
            }
        } catch let error as KCAuthError where !locked {
            outcome.lockProblem = error
            _ = try endAndDelete(only: nil)
        }
        return outcome
    }

    /// This logout, authenticating the provider requests as the session's client does.
    public func authenticating(with authenticator: @escaping @Sendable (AuthState) -> ClientAuthenticator?) -> SessionEnd {
        var copy = self
        copy.authenticator = authenticator
        return copy
    }
}
