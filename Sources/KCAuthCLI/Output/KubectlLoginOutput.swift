import KCAuth
import KCAuthCore

/// kubectl's sign-in (``TokenOrSignIn``, which runs ``Login`` in its kubectl mode) on stderr, in
/// `login`'s words (``LoginOutput``): stdout stays the ExecCredential, which the caller prints.
struct KubectlLoginOutput: Sendable {
    let login: LoginOutput

    init(_ services: Services, profile: String) {
        let console = services.console
        login = LoginOutput(profile: profile, console: console, clock: services.context.clock,
                            progress: LoginProgress(console: console, qrRequested: false, environment: services.environment,
                                                    qrCode: services.context.adapters.qrCode))
    }

    func show(_ event: Login.Event) { login.show(event) }

    /// How the sign-in ended, as `login` says it with no `-o` (the token goes to kubectl).
    func present(_ result: Login.Result?) {
        if let result { login.present(result, format: nil) }
    }

    /// Leaves the terminal on a fresh line (the countdown must not swallow an error message).
    func end() { login.progress.end() }
}
