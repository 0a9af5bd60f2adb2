/// The one error type of kcauth's core and adapters.
///
/// A `code` is stable and is what callers branch on; the CLI maps it to an exit code at the edge
/// (`ExitStatus`). `message` is one readable line for a person and must never contain a token.
/// `hint` is an optional next step ("Run `kcauth login`"). `cause` keeps lower-level detail
/// (an OpenSSL or libsecret error text) for `--verbose`-style diagnostics.
public struct KCAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        /// Bad command line or option value.
        case usage
        /// A malformed or unusable configuration value.
        case configuration
        /// Transport failed: DNS, connect, TLS, timeout, an unexpected HTTP status.
        case network
        /// The provider answered with an OAuth error (`error` / `error_description`).
        case provider
        /// The provider answered something that is not what the spec says (bad JSON, issuer mismatch).
        case invalidResponse
        /// An ID token failed validation (signature, iss, aud, exp, nonce …).
        case invalidIDToken
        /// The user denied access at the provider.
        case accessDenied
        /// The user, or a signal, cancelled.
        case cancelled
        /// Waiting for the user (callback, device approval) took longer than allowed.
        case timedOut
        /// Nothing usable is stored: log in (again).
        case loginRequired
        /// No Secret Service, no D-Bus session, no default collection.
        case storageUnavailable
        /// The keyring exists but is locked.
        case storageLocked
        /// The keyring did not answer within the deadline.
        case storageNotResponding
        /// A bug or an impossible state.
        case `internal`
    }

    public var code: Code
    public var message: String
    public var hint: String?
    public var cause: String?

    public init(_ code: Code, _ message: String, hint: String? = nil, cause: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
        self.cause = cause
    }

    public var description: String { message }
}
