import KCAuthCore

/// Turns an error into one line on stderr (`error: what happened; what to do`) and an exit code.
/// Every error gets a fix part: its own hint, else its remedy in words (`RemedyWords`), else the
/// general next step for its kind.
enum ErrorPresenter {
    static func present(_ error: KCAuthError, on console: any Console) -> Int32 {
        console.err(line(error) + "\n")
        return ExitStatus.of(error.code).code
    }

    /// `error: what happened; what to do`, on one line.
    static func line(_ error: KCAuthError) -> String {
        Sanitize.oneLine("error: \(MessageWords.message(error)); \(fix(for: error))", limit: 1000)
    }

    static func fix(for error: KCAuthError) -> String {
        LoginHint.hint(for: error) ?? generalFix(error)
    }

    /// The next step for an error that brings none of its own.
    static func generalFix(_ error: KCAuthError) -> String {
        switch error.oauthError {
        case .invalidScope?: return "ask only for scopes the client may request (--scope), or allow them for the client at the provider"
        case .invalidClient?, .unauthorizedClient?: return "check the client id and the client's settings at the provider"
        case .temporarilyUnavailable?, .serverError?: return "try again in a moment; `kcauth doctor` checks the provider"
        default: break
        }
        switch error.code {
        case .usage: return "see `kcauth help`"
        case .network: return "check the network and the issuer URL; `kcauth doctor` checks both"
        case .provider: return "check the client's settings at the provider; `kcauth doctor` checks the provider"
        case .invalidResponse: return "the provider does not answer as the standard says; `kcauth doctor` checks its discovery document"
        case .invalidIDToken: return "check the client id, the issuer and the clock; `kcauth doctor` compares the clock with the provider's"
        case .accessDenied, .cancelled: return "run the command again to sign in"
        case .timedOut: return "run the command again and finish the sign-in in time"
        case .loginRequired: return "run `kcauth login`"
        case .configuration: return "`kcauth doctor` shows what is wrong"
        case _ where error.code.isStorageFailure: return "`kcauth doctor` checks the keyring"
        default: return "this is a bug in kcauth: please report it with the command you ran"
        }
    }
}
