/// Who a command runs for, as far as signing in goes (docs/commands.md "Who may open a browser"):
/// a sign-in starts only for a person, and a caller that cannot sign in where it runs gets a
/// desktop reminder instead (``SignInReminderRule``). The front end says what only it knows
/// (its command, its standard error); the library the rest (`KCAuthContext.signInCaller`).
public struct SignInCaller: Sendable, Equatable {
    /// Standard input is a terminal.
    public var stdinIsTerminal: Bool
    /// Standard error is a terminal.
    public var stderrIsTerminal: Bool
    /// A credential helper (git's, docker's): run by a tool for each operation, never by hand.
    public var credentialHelper: Bool
    /// What kubectl said in `KUBERNETES_EXEC_INFO`; nil when the variable is not set, or holds
    /// something kcauth refuses (the command reports that itself).
    public var kubectl: KubernetesExecInfo?

    public init(stdinIsTerminal: Bool, stderrIsTerminal: Bool, credentialHelper: Bool = false, kubectl: KubernetesExecInfo? = nil) {
        self.stdinIsTerminal = stdinIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.credentialHelper = credentialHelper
        self.kubectl = kubectl
    }

    /// A terminal on stdin or stderr: someone may read a prompt and use the browser.
    public var personPresent: Bool { stdinIsTerminal || stderrIsTerminal }

    /// After a failure that asks for a sign-in, whether this caller could not have signed in
    /// here and so gets a desktop reminder: a credential helper, kubectl in batch mode
    /// (`interactive: false`), or no terminal at all (cron, a CI job, a script in the background).
    public var getsReminder: Bool { credentialHelper || kubectl?.interactive == false || !personPresent }
}
