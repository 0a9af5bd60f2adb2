import KCAuthCore

/// The CLI's words for a typed remedy (``KCAuthError/Remedy``): the core says what fixes it, the
/// command line says how a person does that here (a flag, a command to copy).
enum RemedyWords {
    static func text(_ remedy: KCAuthError.Remedy) -> String {
        switch remedy {
        case .signIn(let profile): return LoginHint.command(profile: profile)
        case .signInAgain(let profile): return LoginHint.command(profile: profile) + " again"
        // MARK: integrations
        case .addEntryByHand: return "add the entry printed by `kcauth kubeconfig` by hand"
        // MARK: doctor, stores, ssh
        case .checkCA(_, let caFile?): return "check that \(caFile) holds the CA that issued it"
        case .checkCA(_, nil): return "if the provider uses a private CA, pass it with --ca-file PEM (or KCAUTH_CA_FILE)"
        case .checkHostName: return "check the host name in the issuer URL and the DNS"
        case .signInWithoutDPoP: return "sign in without DPoP (`kcauth login --dpop no`)"
        case .signInWithPAR(let modes): return "sign in with " + modes.map { "`--par \($0.rawValue)`" }.joined(separator: " or ")
        case .signInOnLaptop(let profile): return "sign in on the laptop (kcauth login --profile \(profile)); this connection can stay open"
        case .reconnectForward(let variable): return "reconnect with `kcauth ssh`, or unset \(variable) to use this host's own sessions"
        case .installBrowserLauncher(wsl: true):
            return "install wslu (wslview), or set $BROWSER or --browser-command; or paste the address back (`kcauth login --no-browser`)"
        case .installBrowserLauncher(wsl: false):
            return "install xdg-utils or set $BROWSER; over SSH, log in with the URL printed by `kcauth login --no-browser`"
        case .passphraseEachCommand: return "each command asks for the passphrase on a terminal, or reads --passphrase-file / $KCAUTH_PASSPHRASE_FILE"
        case .createEncryptedStore: return "create it with `kcauth login --storage encrypted`"
        case .passphraseWithoutKernelKeyring:
            return "each command will ask for the passphrase on the terminal, or read --passphrase-file / $KCAUTH_PASSPHRASE_FILE"
        case .unlockStore: return "run `kcauth unlock` (once per boot, from any terminal), or give --passphrase-file / $KCAUTH_PASSPHRASE_FILE"
        case .givePassphraseFile: return "give --passphrase-file PATH (or $KCAUTH_PASSPHRASE_FILE) with a file of mode 0600"
        case .moveDamagedSessionAway: return "nothing was changed; move the file away and log in again (`kcauth login` asks before replacing it)"
        case .relockStore: return "run `kcauth lock` to remove it, then `kcauth unlock`"
        case .readableCAFile: return "pass a readable PEM file to --ca-file"
        case .retryOrCheckProvider: return "the provider is slow or stuck; try again, or check it with `kcauth doctor`"
        // MARK: the system's adapters
        case .startKeyring:
            return "start one (a desktop session has gnome-keyring or KeePassXC; headless: `gnome-keyring-daemon --unlock`)" + chooseAStore
        case .createKeyringCollection:
            return "create one: log in to a desktop session once, or pipe a new password into `gnome-keyring-daemon --replace --unlock`"
                + chooseAStore
        case .installKeyring:
            return "install gnome-keyring (or KeePassXC with its Secret Service integration) and log in to a desktop session" + chooseAStore
        // Plain `gnome-keyring-daemon --unlock` does not unlock an already running daemon (it
        // starts a second one); `--replace --unlock` does (verified against gnome-keyring 42.1).
        case .unlockKeyring:
            return "unlock it: log in to the desktop session or open \"Passwords and Keys\"; "
                + "headless, pipe its password into `gnome-keyring-daemon --replace --unlock`"
        case .unlockKeyringWithDialog:
            return "kcauth login, token, refresh, logout and whoami ask for its password in the keyring's own "
                + "dialog when a display is available; or " + text(.unlockKeyring)
        case .restartKeyring: return "restart gnome-keyring-daemon (or log out and back in)"
        case .chooseAnotherPort: return "choose another --port or omit it"
        case .choosePortAbove1023: return "choose a port above 1023 or omit --port"
        case .openAddressYourself(fixCommand: false): return "open the URL printed above yourself, or set $BROWSER"
        case .openAddressYourself(fixCommand: true): return "open the URL printed above yourself, or fix --browser-command"
        case .openAddressOrNameBrowser: return "open the URL yourself, or name a browser with --browser-command"
        // MARK: login and sessions
        case .giveClientCredential:
            return "export KCAUTH_CLIENT_SECRET, or pass --client-secret-file FILE, --client-key FILE or --client-assertion-from SOURCE"
        case .giveIssuer: return "pass --issuer URL, or --server URL --realm NAME"
        case .giveClientID: return "pass --client-id ID (the public client registered at the provider)"
        case .loginWithSettings(let profile, let issuer, let clientID):
            var command = LoginHint.login(profile: profile)
            if issuer { command += " --issuer https://sso.example.com/realms/REALM" }
            if clientID { command += " --client-id CLIENT" }
            return "run `\(command)`" + (issuer ? " (or --server URL --realm NAME instead of --issuer)" : "")
        case .passSettings: return "pass the settings as flags: `kcauth login --help`"
        case .noSuchProfile(let name): return "see `kcauth profiles`; `kcauth login --profile \(name)` creates it"
        // MARK: flows, settings, storage
        case .useFixedPort: return fixedPortAfterTimeout
        case .useBrowserFlow: return "sign in with the browser flow: `kcauth login --browser`"
        case .useBrowserFlowOrEnableDevice(let clientID):
            return "the device flow is not enabled for client '\(clientID)': sign in with the browser flow "
                + "(`kcauth login --browser`), or ask an admin to enable the device authorization grant for it"
        case .signInAgainThenCheckClient: return "run `kcauth login` again; if it keeps failing, check the client's settings at the provider"
        case .signInAgainThenCheckPrograms: return "run `kcauth login` again; if this repeats, check which programs run on this machine"
        case .pushAuthorizationRequests:
            return "if the provider requires pushed authorization requests without saying so (Keycloak can), sign in with `--par always`"
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
        // MARK: a platform's assertion
        case .grantIDTokenPermission:
            return "add `permissions: id-token: write` to the workflow or the job (GitHub sets both variables only then, "
                + "and never for a pull request from a fork)"
        case .renewIDTokenRequest:
            return "the request token lives only as long as its job and needs `permissions: id-token: write`: "
                + "run kcauth in a step of that job"
        case .retryPlatformIDToken: return "try again (re-run the job); the platform's status page says whether its ID-token service is down"
        case .checkIDTokenRequestURL:
            return "check $ACTIONS_ID_TOKEN_REQUEST_URL: it must be the address the runner gave the job (kcauth adds &audience=AUD)"
        case .checkFederatedClient:
            return "at the provider (Keycloak: the client's Credentials, \"Signed JWT - Federated\"), the identity provider must have that iss "
                + "as its issuer and the federated subject must equal that sub; the aud must be the realm's issuer "
                + "(or what --client-assertion-audience asks for)"
        }
    }

    /// Only ever advice: kcauth never falls back to a plaintext file by itself (a plaintext
    /// store is only ever chosen by name); the three stores that need no keyring are named, for a
    /// job without a terminal, which cannot be offered the encrypted store.
    static let chooseAStore = ", or choose a store explicitly: `--storage encrypted` (a passphrase-protected file; "
        + "`--passphrase-file PATH` without a terminal), `--storage file` (a plaintext file, on purpose) or `--storage memory` (nothing kept)"

    /// A line shown under the "waiting" message of a browser sign-in.
    static let fixedPortWhileWaiting = "If the browser shows an error from the provider instead, the provider may require "
        + "a fixed --port registered as an exact redirect URI."

    /// `useFixedPort`: the hint of a browser sign-in that timed out.
    static let fixedPortAfterTimeout = "if the browser showed an error from the provider, it may require a fixed --port "
        + "registered as an exact redirect URI (e.g. --port 8400 with http://127.0.0.1:8400/callback)"
}
