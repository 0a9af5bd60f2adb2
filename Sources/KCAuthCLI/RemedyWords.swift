import KCAuthCore

/// The CLI's words for a typed remedy (`KCAuthError.Remedy`): the commands and flags a person
/// types to fix what went wrong, spelled for copy and paste.
enum RemedyWords {
    static func words(_ remedy: KCAuthError.Remedy) -> String {
        switch remedy {
        case .signIn(let profile): return LoginHint.command(profile: profile)
        case .signInAgain(let profile): return LoginHint.command(profile: profile) + " again"
        case .useFixedPort: return fixedPortAfterTimeout
        case .useBrowserFlow: return "sign in with the browser flow: `kcauth login --browser`"
        case .useBrowserFlowOrEnableDevice(let clientID):
            return "the device flow is not enabled for client '\(clientID)': sign in with the browser flow "
                + "(`kcauth login --browser`), or ask an admin to enable the device authorization grant for it"
        case .signInAgainThenCheckClient: return "run `kcauth login` again; if it keeps failing, check the client's settings at the provider"
        case .signInAgainThenCheckPrograms: return "run `kcauth login` again; if this repeats, check which programs run on this machine"
        case .pushAuthorizationRequests:
            return "if the provider requires pushed authorization requests without saying so (Keycloak can), sign in with `--par always`"
        case .relaxPushedAuthorization: return "sign in with `--par auto` or `--par never`"
        case .checkClientOrSkipPushedAuthorization:
            return "check the client's settings at the provider, or sign in without a pushed request (`--par never`)"
        case .signInWithDPoP: return "sign in with `kcauth login --dpop` to use DPoP with this provider"
        case .signInWithClientCredentials(let profile):
            return "run `kcauth login --profile \(profile) --client-credentials` with the client's secret or key"
        case .askWithoutUserinfo: return "run `kcauth whoami` without --userinfo"
        case .fixDefaultProfile: return "fix the file by hand, or run `kcauth use NAME`"
        case .useClientKey: return "use a signed assertion (--client-key) if it offers private_key_jwt"
        case .fixSavedIssuer: return "fix the issuer in the file, or pass --issuer"
        case .exampleBrowserCommand: return "e.g. --browser-command 'firefox --private-window %s'"
        }
    }

    /// A line shown under the "waiting" message of a browser sign-in.
    static let fixedPortWhileWaiting = "If the browser shows an error from the provider instead, the provider may require "
        + "a fixed --port registered as an exact redirect URI."

    /// `useFixedPort`: the hint of a browser sign-in that timed out.
    static let fixedPortAfterTimeout = "if the browser showed an error from the provider, it may require a fixed --port "
        + "registered as an exact redirect URI (e.g. --port 8400 with http://127.0.0.1:8400/callback)"
}
