import Testing
@testable import KCAuthCore

/// Who gets a desktop reminder to sign in again (docs/commands.md "Who may open a browser"):
/// only a caller that could not have signed in where it runs, only for a sign-in here, and not
/// where `sign_in_notification` is off.
@Suite struct SignInReminderRuleTests {
    static let batch = KubernetesExecInfo(apiVersion: .v1, interactive: false)
    static let interactive = KubernetesExecInfo(apiVersion: .v1, interactive: true)

    @Test(arguments: [
        // (stdin, stderr, helper, kubectl) → reminded
        (false, false, false, nil, true),          // cron, a CI job: no terminal at all
        (true, false, false, nil, false),          // a person typed it
        (false, true, false, nil, false),          // stdin piped, a person reads stderr
        (true, true, true, nil, true),             // git's or docker's helper, even in a terminal
        (true, true, false, batch, true),          // kubectl with interactive: false
        (true, true, false, interactive, false),   // kubectl with a person: it could sign in
        (false, false, false, interactive, true),  // kubectl's word alone is not a person
    ] as [(Bool, Bool, Bool, KubernetesExecInfo?, Bool)])
    func whoCouldNotHaveSignedInGetsAReminder(_ stdin: Bool, _ stderr: Bool, _ helper: Bool, _ kubectl: KubernetesExecInfo?, _ reminded: Bool) {
        let caller = SignInCaller(stdinIsTerminal: stdin, stderrIsTerminal: stderr, credentialHelper: helper, kubectl: kubectl)
        #expect(caller.getsReminder == reminded)
        let error = KCAuthError(.loginRequired, "not logged in", remedy: .signIn(profile: "work"))
        #expect(SignInReminderRule.profile(after: error, caller: caller) == (reminded ? "work" : nil))
    }

    @Test func onlyAFailureThatAsksForASignInHereNamesAProfile() {
        let cron = SignInCaller(stdinIsTerminal: false, stderrIsTerminal: false)
        #expect(SignInReminderRule.profile(after: KCAuthError(.loginRequired, "over", remedy: .signInAgain(profile: "p")), caller: cron) == "p")
        #expect(SignInReminderRule.profile(after: KCAuthError(.loginRequired, "no session"), caller: cron) == nil)
        #expect(SignInReminderRule.profile(after: KCAuthError(.network, "down", remedy: .signIn(profile: "p")), caller: cron) == nil)
    }

    @Test(arguments: [
        ("", true),
        ("sign_in_notification = off\n", false),
        ("sign_in_notification = 0\n", false),
        ("sign_in_notification = No\n", false),
        ("sign_in_notification = FALSE\n", false),
        ("sign_in_notification = on\n", true),
        ("[work]\nsign_in_notification = off\n", false),
        ("[other]\nsign_in_notification = off\n", true),
        ("sign_in_notification = off\n[work]\nsign_in_notification = on\n", true),
    ])
    func theProfilesSettingElseTheGlobalOneTurnsItOff(_ text: String, _ enabled: Bool) throws {
        let config = try ConfigDocument(parsing: text, path: "/c")
        #expect(SignInReminderRule.enabled(profile: "work", config: config) == enabled)
    }

    @Test func withoutAReadableConfigurationRemindersStayOn() {
        #expect(SignInReminderRule.enabled(profile: "work", config: nil))
    }
}
