import KCAuth
import KCAuthContract
import KCAuthCore

/// Who may open a browser (docs/commands.md "Who may open a browser"): a sign-in
/// starts only for a person, that is `kcauth login` itself or kubectl's `interactive: true`
/// with a terminal on stdin or stderr. Every other caller that finds no session ends at once
/// with exit 4 and the command that fixes it, and on a desktop shows one notification.
enum SignInNotice {
    /// A terminal on stdin or stderr: someone may read the prompt and use the browser.
    static func personPresent(_ services: Services) -> Bool {
        services.context.adapters.terminal.isInteractive || services.console.stderrIsTTY
    }

    /// After a command failed: the desktop reminder, when the failure asks for a sign-in and the
    /// caller could not have signed in here (a credential helper, kubectl without a person, no
    /// terminal at all), unless `sign_in_notification = off` for the profile or globally.
    static func afterFailure(_ error: KCAuthError, command: String, _ services: Services) {
        guard error.code == .loginRequired else { return }
        let profile: String
        switch error.remedy {
        case .signIn(let name)?, .signInAgain(let name)?: profile = name
        default: return  // a sign-in elsewhere (the laptop of a forward), or none
        }
        let helper = command == GitCredentialCommand.spec.name || command == DockerCredentialCommand.spec.name
        let kubectlBatch = (try? KubernetesExecInfo(environment: services.environment)).map { services.environment[KubernetesExecInfo.variable] != nil && !$0.interactive } ?? false
        guard helper || kubectlBatch || !personPresent(services), enabled(profile: profile, services) else { return }
        services.context.adapters.reminder().remind(profile: profile)
    }

    /// The profile's `sign_in_notification`, else the global one; on unless an off word.
    static func enabled(profile: String, _ services: Services) -> Bool {
        let key = SettingsCatalogue.signInNotification.key!
        guard let config = try? services.context.config(),
              let value = config.value(key, profile: profile) ?? config.value(key, profile: nil) else { return true }
        return !SettingCheck.offWords.contains(SettingCheck.asciiLowercased(value))
    }
}
