/// Tells a person who is not at this terminal that a profile needs signing in again (issue 18
/// #2): a caller that cannot interact (a credential helper, kubectl without a terminal, cron)
/// never opens a browser; on a desktop it shows one notification instead.
public protocol SignInReminder: Sendable {
    /// Shows the reminder for `profile` unless one was shown in the last
    /// ``SignInReminderRule/interval`` seconds (by any process of the user). Returns at once;
    /// best effort, never throws.
    func remind(profile: String)
}

public enum SignInReminderRule {
    /// At most one reminder per profile in this many seconds, across all processes.
    public static let interval = 600.0

    /// The notification's title: the words the issue asks for, the profile name (a valid
    /// profile name: letters, digits, `.`, `_`, `-`).
    public static func summary(profile: String) -> String { "kcauth: sign in again for profile \(profile)" }

    public static func body(profile: String) -> String {
        "Run " + (profile == ProfileName.defaultName ? "kcauth login" : "kcauth login --profile \(profile)") + " in a terminal."
    }
}
