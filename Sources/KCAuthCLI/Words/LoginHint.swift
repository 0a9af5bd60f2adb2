import KCAuthCore

/// The CLI's words for "sign in again": the command that fixes a "login required" state,
/// spelled for copy and paste.
enum LoginHint {
    static func command(profile: String) -> String {
        "run " + login(profile: profile).quoted
    }

    static func login(profile: String) -> QuotedCommand {
        QuotedCommand(LoginCommand.spec).profile(profile)
    }

    /// The hint an error carries, else its remedy in words.
    static func hint(for error: KCAuthError) -> String? {
        error.hint ?? error.remedy.map(RemedyWords.text)
    }
}
