import Testing
@testable import KCAuth
import KCAuthTestSupport

/// The desktop reminder is the library's decision (who could not have signed in, and the
/// profile's `sign_in_notification`); the front end only says which command ran and whether
/// stderr is a terminal.
@Suite struct RemindToSignInTests {
    static let signIn = KCAuthError(.loginRequired, "not logged in", remedy: .signIn(profile: "default"))

    @Test func aCallerWithoutATerminalIsRemindedOnce() {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        let context = KCAuthContext(adapters: fake.adapters)
        context.remindToSignIn().afterFailure(Self.signIn, caller: context.signInCaller(stderrIsTerminal: false, credentialHelper: false))
        #expect(fake.reminder.profiles == ["default"])
    }

    @Test func aPersonAtATerminalIsNotRemindedAndTheConfigurationIsNotRead() {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        let context = KCAuthContext(adapters: fake.adapters)
        context.remindToSignIn().afterFailure(Self.signIn, caller: context.signInCaller(stderrIsTerminal: true, credentialHelper: false))
        #expect(fake.reminder.profiles.isEmpty && fake.settings.loads == 0)
    }

    @Test func aCredentialHelperIsRemindedEvenInATerminalUnlessTheProfileSaysOff() {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        let context = KCAuthContext(adapters: fake.adapters)
        context.remindToSignIn().afterFailure(Self.signIn, caller: context.signInCaller(stderrIsTerminal: true, credentialHelper: true))
        #expect(fake.reminder.profiles == ["default"])
        let off = FakeAdapters(config: FakeAdapters.profileConfig + "sign_in_notification = off\n")
        let quiet = KCAuthContext(adapters: off.adapters)
        quiet.remindToSignIn().afterFailure(Self.signIn, caller: quiet.signInCaller(stderrIsTerminal: true, credentialHelper: true))
        #expect(off.reminder.profiles.isEmpty)
    }

    @Test func kubectlsWordComesFromTheEnvironmentAndStdinFromTheTerminal() {
        let batch = FakeAdapters(environment: ["KUBERNETES_EXEC_INFO": ""])
        batch.terminal = ScriptedTerminal(interactive: true)
        let caller = KCAuthContext(adapters: batch.adapters).signInCaller(stderrIsTerminal: true, credentialHelper: false)
        #expect(caller.stdinIsTerminal && caller.kubectl == KubernetesExecInfo() && caller.getsReminder, "set but empty: kubectl in batch mode")
        let refused = FakeAdapters(environment: ["KUBERNETES_EXEC_INFO": "[]"])
        let odd = KCAuthContext(adapters: refused.adapters).signInCaller(stderrIsTerminal: true, credentialHelper: false)
        #expect(odd.kubectl == nil && !odd.stdinIsTerminal && !odd.getsReminder, "a value kcauth refuses is the command's to report")
    }
}
