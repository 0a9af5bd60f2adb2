/// Tells a person who is not at this terminal that a profile needs signing in again
/// (docs/commands.md "Who may open a browser"): a caller that cannot interact (a credential helper,
/// kubectl without a terminal, cron) never opens a browser; on a desktop it shows one notification
/// instead.
public protocol SignInReminder: Sendable {
    /// Shows the reminder for `profile` unless one was shown in the last
    /// ``SignInReminderRule/interval`` seconds (by any process of the user). Returns at once;
    /// best effort, never throws.
    func remind(profile: String)
}
