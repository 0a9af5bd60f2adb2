/// The one error type of kcauth's core and adapters.
///
/// A `code` is stable and is what callers branch on; the CLI maps it to an exit code at the edge
/// (`ExitStatus`). `message` is one readable line for a person and must never contain a token.
/// `hint` is an optional next step. `oauthError` is the provider's RFC 6749 §5.2 / §4.1.2.1
/// error code when the provider sent one: callers branch on it, never on the message.
/// `cause` keeps lower-level detail (an OpenSSL or libsecret error text) for diagnostics.
public struct KCAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error category. A struct with static members rather than an enum, so that a new
    /// category in a later kcauth does not break a library user's exhaustive `switch`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Bad command line or option value.
        public static let usage = Code(rawValue: "usage")
        /// A malformed or unusable configuration value.
        public static let configuration = Code(rawValue: "configuration")
        /// Transport failed: DNS, connect, TLS, timeout, an unexpected HTTP status.
        public static let network = Code(rawValue: "network")
        /// The provider answered with an OAuth error (`oauthError` says which).
        public static let provider = Code(rawValue: "provider")
        /// The provider answered something that is not what the spec says (bad JSON, issuer
        /// mismatch, a number out of range).
        public static let invalidResponse = Code(rawValue: "invalidResponse")
        /// An ID token failed validation (signature, iss, aud, exp, nonce …).
        public static let invalidIDToken = Code(rawValue: "invalidIDToken")
        /// The user denied access at the provider.
        public static let accessDenied = Code(rawValue: "accessDenied")
        /// The user, or a signal, cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// Waiting for the user (callback, device approval) took longer than allowed.
        public static let timedOut = Code(rawValue: "timedOut")
        /// Nothing usable is stored: log in (again).
        public static let loginRequired = Code(rawValue: "loginRequired")
        /// No Secret Service, no D-Bus session, no default collection.
        public static let storageUnavailable = Code(rawValue: "storageUnavailable")
        /// The keyring exists but is locked.
        public static let storageLocked = Code(rawValue: "storageLocked")
        /// The keyring did not answer within the deadline.
        public static let storageNotResponding = Code(rawValue: "storageNotResponding")
        /// A bug or an impossible state.
        public static let `internal` = Code(rawValue: "internal")

        /// Every code this version of kcauth produces.
        public static let known: [Code] = [.usage, .configuration, .network, .provider, .invalidResponse, .invalidIDToken,
                                           .accessDenied, .cancelled, .timedOut, .loginRequired, .storageUnavailable,
                                           .storageLocked, .storageNotResponding, .internal]

        /// The three ways the secure storage can fail (exit 5).
        public var isStorageFailure: Bool { self == .storageUnavailable || self == .storageLocked || self == .storageNotResponding }
    }

    public var code: Code
    public var message: String
    public var hint: String?
    public var cause: String?
    /// The provider's OAuth error code, when this error is the provider's answer.
    public var oauthError: OAuthErrorCode?
    /// What fixes it, as a fact for the presenter to phrase (the core does not know how a
    /// person runs kcauth: a command line, or a Swift program's own UI).
    public var remedy: Remedy?
    /// What the message states, as a fact a presenter may phrase in its own words (a setting
    /// named the way the person gave it); `message` says it plainly.
    public var problem: Problem?
    /// The HTTP status of the provider's answer, when this error is one (a refused refresh is
    /// judged by it too: `RefreshRefusal`).
    public var httpStatus: Int?
    /// The transport failed in a way the same request may not fail again (the connection was
    /// refused, reset or timed out, the name did not resolve): a loop that polls may retry it.
    /// An HTTP answer is judged by `httpStatus` instead.
    public var transient = false
    /// Seconds the provider asked to wait before the next request (`Retry-After` on a 429 or
    /// 503, RFC 9110 §10.2.3), range-checked where it was read (`RetryAfter`).
    public var retryAfter: Double?

    public enum Remedy: Sendable, Equatable {
        /// Sign in to the profile.
        case signIn(profile: String)
        /// Start the sign-in over (a device code expired, a flow was interrupted).
        case signInAgain(profile: String)
        /// A kubeconfig kcauth cannot edit: add its entries by hand.
        case addEntryByHand
        /// The kubeconfig has no cluster of the name given: add it first, or merge the user alone.
        case addClusterFirst

        // MARK: doctor, stores, ssh
        /// The provider's TLS certificate is not trusted: name a CA file (`caFile`: the one in
        /// use, which does not hold the issuing CA).
        case checkCA(host: String, caFile: String?)
        /// The host name did not resolve: check it and the DNS.
        case checkHostName(host: String)
        /// The provider signs with none of kcauth's DPoP algorithms: sign in without DPoP.
        case signInWithoutDPoP
        /// The profile's PAR mode cannot work with this provider: sign in with one of these.
        case signInWithPAR([PARMode])
        /// A forwarded session's laptop needs a sign-in; the connection can stay open.
        case signInOnLaptop(profile: String)
        /// A forwarded socket must not be used: reconnect, or unset `variable` for this host's own sessions.
        case reconnectForward(variable: String)
        /// No browser launcher: install one, or sign in with the address shown (`wsl`: on WSL,
        /// where the Windows browser is reached through wslu).
        case installBrowserLauncher(wsl: Bool)
        /// No kernel keyring: the encrypted store's passphrase is given to each command.
        case passphraseEachCommand
        /// There is no encrypted store yet: a sign-in with it creates it.
        case createEncryptedStore
        /// No kernel keyring to unlock for other processes: each command will need the passphrase.
        case passphraseWithoutKernelKeyring
        /// The encrypted store is locked and nobody can type its passphrase: unlock it, or name
        /// a passphrase file.
        case unlockStore
        /// A new passphrase is needed and nobody can type it: name a file that holds it.
        case givePassphraseFile
        /// A damaged session file is in the way: move it away and sign in again (which asks first).
        case moveDamagedSessionAway
        /// The kernel keyring holds a foreign key under the store's name: lock, then unlock.
        case relockStore
        /// The CA file cannot be used: name a readable PEM file.
        case readableCAFile
        /// The provider did not answer in time: try again, or check it.
        case retryOrCheckProvider
        // MARK: the system's adapters
        /// No Secret Service (or it lost an item): start one, or choose a store that needs none.
        case startKeyring
        /// The Secret Service has no default collection: create one, or choose another store.
        case createKeyringCollection
        /// Install a Secret Service and sign in to a desktop, or choose another store (doctor).
        case installKeyring
        /// The keyring is locked: unlock it by hand.
        case unlockKeyring
        /// The keyring is locked: the commands ask in its own dialog, or unlock it by hand (doctor).
        case unlockKeyringWithDialog
        /// The keyring is locked and its unlock dialog cannot be shown here (no display, or one
        /// that does not answer): unlock it some other way, or keep the session in a store that
        /// needs no keyring.
        case unlockKeyringOrChooseStore
        /// The keyring did not answer: restart it.
        case restartKeyring
        /// The loopback port is taken: another one, or none (any free port).
        case chooseAnotherPort
        /// The loopback port is privileged: one above 1023, or none.
        case choosePortAbove1023
        /// No browser started: open the address by hand, or name a browser (`fixCommand`: the
        /// profile's browser command is what failed).
        case openAddressYourself(fixCommand: Bool)
        /// The browser launcher failed after it started: open the address, or name a browser.
        case openAddressOrNameBrowser
        // MARK: login and sessions
        /// The client-credentials grant needs the client's secret, key or assertion.
        case giveClientCredential
        /// The profile names no provider (issuer) yet.
        case giveIssuer
        /// The profile names no client yet.
        case giveClientID
        /// Nobody can be asked for the profile's missing settings: the complete login command.
        case loginWithSettings(profile: String, issuer: Bool, clientID: Bool)
        /// The first-run questions got no usable answer: give the settings another way.
        case passSettings
        /// No such profile: list the profiles, or create it by signing in.
        case noSuchProfile(String)
        /// The browser never came back: the provider may compare the redirect URI exactly, so
        /// a fixed loopback port registered as an exact redirect URI is needed.
        case useFixedPort
        /// The provider refused the authorization request before anyone signed in: the client id,
        /// or the redirect URIs the client allows (which the refusal points at).
        case checkClientOrRedirectURI(RefusedAuthorization)
        /// The provider has no device flow: sign in with the browser flow.
        case useBrowserFlow
        /// The device flow is off for this client: the browser flow, or an admin enables it.
        case useBrowserFlowOrEnableDevice(clientID: String)
        /// The provider refused to redeem the code: sign in again, then look at the client.
        case signInAgainThenCheckClient
        /// The start URL was opened twice: sign in again, then look at what runs here.
        case signInAgainThenCheckPrograms
        /// An ordinary request was refused where the provider may require pushed requests (`par`
        /// `always`).
        case pushAuthorizationRequests
        /// A pushed request was refused: the client's settings, or `par` `never`.
        case checkClientOrSkipPushedAuthorization
        /// The provider bound the token to a key although none was asked for (`dpop`).
        case signInWithDPoP
        /// A client-credentials session expired and names no credentials to renew it.
        case signInWithClientCredentials(profile: String)
        /// The provider has no userinfo endpoint: ask without userinfo.
        case askWithoutUserinfo
        /// The file's `default_profile` is not a profile name: fix it, or choose a profile.
        case fixDefaultProfile
        /// The provider takes no client secret: a signed assertion (the client's key) may do.
        case useClientKey
        /// The profile's saved issuer is unusable: fix it in the file, or give one.
        case fixSavedIssuer
        /// A browser command names no program: an example of one.
        case exampleBrowserCommand
        /// A directory's profile file names a profile the configuration lacks: sign in to create
        /// it, or change the file.
        case createProfileOrChangeFile(profile: String, file: String)
        // MARK: a platform's assertion (federated client authentication)
        /// The CI job was given no ID token: grant the workflow the permission to ask for one.
        case grantIDTokenPermission
        /// The platform refused the request token: it belongs to a running job with that permission.
        case renewIDTokenRequest
        /// The platform's ID-token service failed or did not answer: try again.
        case retryPlatformIDToken
        /// The ID-token request URL is not the service's.
        case checkIDTokenRequestURL
        /// The provider refused the platform's assertion: compare its claims with the client's
        /// federated client authentication settings.
        case checkFederatedClient
    }

    public enum Problem: Sendable, Equatable {
        /// The ID token describes a sign-in `age` seconds old, older than the `max_age` the
        /// login asked for.
        case signInOlderThanMaxAge(age: Int, maxAge: Int)
        /// The forward's socket on the remote host took no request: the laptop's side of the
        /// forward may have ended.
        case forwardNotTaken
        /// A client-credentials login names no secret, key or assertion to authenticate with.
        case noClientCredential
        /// The profile's last sign-in kept its session in memory only, and that session is gone.
        case keptInMemoryOnly(profile: String)
    }

    public init(_ code: Code, _ message: String, hint: String? = nil, cause: String? = nil, oauthError: OAuthErrorCode? = nil,
                remedy: Remedy? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
        self.cause = cause
        self.oauthError = oauthError
        self.remedy = remedy
    }

    public var description: String { message }

    /// Any error as a `KCAuthError`: the ports throw nothing else, but a caller that must keep
    /// going (doctor, status, a logout of every profile) must not crash on a surprise.
    public static func wrapping(_ error: any Error) -> KCAuthError {
        error as? KCAuthError ?? KCAuthError(.internal, "unexpected error: \(error)")
    }

    /// The same error with another code and message prefix; hint, cause and OAuth code kept.
    public func with(code: Code? = nil, message: String? = nil, hint: String?? = nil) -> KCAuthError {
        var copy = self
        if let code { copy.code = code }
        if let message {
            copy.message = message
            copy.problem = nil
        }
        if let hint { copy.hint = hint }
        return copy
    }
}
