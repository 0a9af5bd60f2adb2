import KCAuthContract
import KCAuthCore

/// The desktop reminder after a command failed for want of a sign-in (docs/commands.md "Who may
/// open a browser"): shown when the caller could not have signed in where it runs and the
/// profile's `sign_in_notification` (else the global one) is not off (``SignInReminderRule``),
/// through the context's ``SignInReminder`` — at most once per profile every
/// ``SignInReminderRule/interval`` seconds. Best effort: it never fails the command further.
public struct RemindToSignIn: Sendable {
    let context: KCAuthContext

    public init(context: KCAuthContext) { self.context = context }

    /// After `error` ended a command run for `caller`. The configuration is read only when a
    /// reminder is due (a broken file counts as no file: the error already said what is wrong).
    public func afterFailure(_ error: KCAuthError, caller: SignInCaller) {
        guard let profile = SignInReminderRule.profile(after: error, caller: caller),
              SignInReminderRule.enabled(profile: profile, config: try? context.config()) else { return }
        context.adapters.reminder().remind(profile: profile)
    }
}

extension KCAuthContext {
    public func remindToSignIn() -> RemindToSignIn { RemindToSignIn(context: self) }

    /// This process as a sign-in sees it: stdin from the terminal adapter, kubectl's word from
    /// `KUBERNETES_EXEC_INFO` (set but empty: kubectl in batch mode); whether stderr is a terminal
    /// and whether the command is a credential helper are the front end's to say.
    public func signInCaller(stderrIsTerminal: Bool, credentialHelper: Bool) -> SignInCaller {
        let kubectl = environment[KubernetesExecInfo.variable] == nil ? nil : try? KubernetesExecInfo(environment: environment)
        return SignInCaller(stdinIsTerminal: adapters.terminal.isInteractive, stderrIsTerminal: stderrIsTerminal,
                            credentialHelper: credentialHelper, kubectl: kubectl)
    }
}
