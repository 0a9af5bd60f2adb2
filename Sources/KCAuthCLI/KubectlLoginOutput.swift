import KCAuth
import KCAuthCore

/// kubectl's sign-in (``KubectlLogin``) on stderr, in `login`'s words: stdout stays the
/// ExecCredential. Nothing is said about a session found; the caller prints the token.
// @unchecked: one sign-in drives it from one thread at a time (the use case's callbacks).
final class KubectlLoginOutput: @unchecked Sendable {
    private let services: Services
    private let profile: String
    private var progress: LoginProgress?

    init(_ services: Services, profile: String) {
        self.services = services
        self.profile = profile
    }

    func show(_ event: KubectlLogin.Event) {
        let console = services.console
        switch event {
        case .signingIn(let profile, let flow, let openBrowser):
            console.err("kcauth: kubectl needs a token for profile '\(profile)': signing in.\n")
            progress = LoginProgress(console: console, choice: flow, openBrowser: openBrowser, qrRequested: false,
                                     environment: services.environment)
        case .waiting(let wait):
            SignInWaitOutput.report(wait, profile: profile, now: services.context.clock.instant, console: console)
        case .signIn(.flow(let step)):
            progress?.show(step)
        case .signIn(let event):
            LoginStorage.report(event, profile: profile, console: console)
        case .signedIn(let output):
            end()
            LoginCommand.reportSignedIn(output, format: nil, profile: profile, services)
        case .clientSignedIn(let output):
            LoginShortcuts.reportClientSignIn(output, format: nil, profile: profile, services)
        }
    }

    /// Leaves the terminal on a fresh line (the countdown must not swallow an error message).
    func end() {
        progress?.end()
        progress = nil
    }
}
