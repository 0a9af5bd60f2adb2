import KCAuthCore

/// An error's message in the CLI's words: the core's own message, unless the error states a
/// fact (`KCAuthError.Problem`) that names a setting the person gave as an option.
enum MessageWords {
    static func message(_ error: KCAuthError) -> String {
        switch error.problem {
        case .signInOlderThanMaxAge(let age, let maxAge)?:
            return "the ID token was rejected: the sign-in it describes is \(age) s old, more than --max-age \(maxAge)"
        case .forwardNotTaken?:
            return error.message + " (is the laptop's `kcauth ssh` still running?)"
        case .keptInMemoryOnly(let profile)?:
            return "the session of profile '\(profile)' was kept in memory only (its last login had --storage memory), and is gone"
        case .noClientCredential?:
            return "--\(LoginClientOptions.clientCredentials.long) needs the client's secret or key"
        case nil:
            return error.message
        }
    }
}
