/// How often a reminder may be shown, and its title. Its body, which says how to sign in, is
/// the presentation's (`DesktopReminder`'s `body`).
public enum SignInReminderRule {
    /// At most one reminder per profile in this many seconds, across all processes.
    public static let interval = 600.0

    /// The notification's title: the words the issue asks for, the profile name (a valid
    /// profile name: letters, digits, `.`, `_`, `-`).
    public static func summary(profile: String) -> String { "kcauth: sign in again for profile \(profile)" }
}
