import KCAuthContract

/// Who gets a desktop reminder to sign in again, how often, and its title. Its body, which says
/// how to sign in, is the presentation's (`DesktopReminder`'s `body`).
public enum SignInReminderRule {
    /// At most one reminder per profile in this many seconds, across all processes.
    public static let interval = 600.0

    /// The notification's title: the words the issue asks for, the profile name (a valid
    /// profile name: letters, digits, `.`, `_`, `-`).
    public static func summary(profile: String) -> String { "kcauth: sign in again for profile \(profile)" }

    /// The profile to remind about after `error` ended a command run for `caller`; nil when the
    /// error does not ask for a sign-in here (a sign-in elsewhere, such as on the laptop of a
    /// forward, or none) or the caller could have signed in itself.
    public static func profile(after error: KCAuthError, caller: SignInCaller) -> String? {
        guard error.code == .loginRequired, caller.getsReminder else { return nil }
        switch error.remedy {
        case .signIn(let name)?, .signInAgain(let name)?: return name
        default: return nil
        }
    }

    /// The profile's `sign_in_notification`, else the global one (before the first section);
    /// on unless it is an off word. No readable configuration: on.
    public static func enabled(profile: String, config: ConfigDocument?) -> Bool {
        let key = SettingsCatalogue.signInNotification.key!
        guard let config, let value = config.value(key, profile: profile) ?? config.value(key, profile: nil) else { return true }
        return !SettingCheck.offWords.contains(SettingCheck.asciiLowercased(value))
    }
}
