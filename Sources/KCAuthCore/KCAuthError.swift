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

    public enum Remedy: Sendable, Equatable {
        /// Sign in to the profile.
        case signIn(profile: String)
        /// Start the sign-in over (a device code expired, a flow was interrupted).
        case signInAgain(profile: String)
        /// The browser never came back: the provider may compare the redirect URI exactly, so
        /// a fixed loopback port registered as an exact redirect URI is needed.
        case useFixedPort
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
        /// `par` is `always` but the provider has no endpoint for it (`auto` or `never`).
        case relaxPushedAuthorization
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
    }

    public enum Problem: Sendable, Equatable {
        /// The ID token describes a sign-in `age` seconds old, older than the `max_age` the
        /// login asked for.
        case signInOlderThanMaxAge(age: Int, maxAge: Int)
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
