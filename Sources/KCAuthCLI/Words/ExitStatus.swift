import KCAuthCore

/// The documented exit codes, and the one place errors are mapped to them.
public struct ExitStatus: Sendable, Equatable {
    public var code: Int32
    public var meaning: String

    public static let success = ExitStatus(code: 0, meaning: "success")
    public static let failure = ExitStatus(code: 1, meaning: "failure: network, provider error, invalid token, unexpected")
    public static let usage = ExitStatus(code: 2, meaning: "usage error: unknown command or option, bad value")
    public static let cancelled = ExitStatus(code: 3, meaning: "cancelled, denied at the provider, or timed out")
    public static let loginRequired = ExitStatus(code: 4, meaning: "login required: nothing stored, or the session expired")
    public static let storage = ExitStatus(code: 5, meaning: "secure storage unavailable, locked or not responding")
    public static let interrupted = ExitStatus(code: 130, meaning: "interrupted (Ctrl-C)")

    public static let documented: [ExitStatus] = [success, failure, usage, cancelled, loginRequired, storage, interrupted]

    public static func of(_ code: KCAuthError.Code) -> ExitStatus {
        switch code {
        case .usage: return .usage
        case .accessDenied, .cancelled, .timedOut: return .cancelled
        case .loginRequired: return .loginRequired
        case _ where code.isStorageFailure: return .storage
        default: return .failure  // configuration, network, provider, invalid response or ID token, internal
        }
    }
}
