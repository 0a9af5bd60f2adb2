import KCAuthCore

/// The CLI's words for a typed remedy (``KCAuthError/Remedy``): the core says what fixes it, the
/// command line says how a person does that here (a flag, a command to copy).
enum RemedyWords {
    static func text(_ remedy: KCAuthError.Remedy) -> String {
        switch remedy {
        case .signIn(let profile): return LoginHint.command(profile: profile)
        case .signInAgain(let profile): return LoginHint.command(profile: profile) + " again"
        // MARK: integrations
        case .addEntryByHand: return "add the entry printed by \(QuotedCommand(KubeconfigCommand.spec).quoted) by hand"
        case .addClusterFirst: return "add it first (`kubectl config set-cluster NAME --server URL`), or leave out --cluster to merge the user alone"
        // MARK: doctor, stores, ssh
        case .checkCA(_, let caFile?): return "check that \(caFile) holds the CA that issued it"
        case .checkCA(_, nil): return "if the provider uses a private CA, pass it with --ca-file PEM (or KCAUTH_CA_FILE)"
        case .checkHostName: return "check the host name in the issuer URL and the DNS"
        case .signInWithoutDPoP: return "sign in without DPoP (\(login.with(LoginSessionOptions.dpopMode, DPoPMode.no.rawValue).quoted))"
        case .signInWithPAR(let modes): return "sign in with " + modes.map { par($0) }.joined(separator: " or ")
        case .signInOnLaptop(let profile): return "sign in on the laptop (\(login.with(CommandTable.profile, profile))); this connection can stay open"
        case .reconnectForward(let variable):
            return "reconnect with \(QuotedCommand(SSHCommand.spec).quoted), or unset \(variable) to use this host's own sessions"
        case .installBrowserLauncher(wsl: true):
            return "install wslu (wslview), or set $BROWSER or --browser-command; or paste the address back (\(login.with(LoginFlowOptions.noBrowser).quoted))"
        case .installBrowserLauncher(wsl: false):
            return "install xdg-utils or set $BROWSER; over SSH, log in with the URL printed by \(login.with(LoginFlowOptions.noBrowser).quoted)"
        case .passphraseEachCommand: return "each command asks for the passphrase on a terminal, or reads --passphrase-file / $KCAUTH_PASSPHRASE_FILE"
        case .createEncryptedStore: return "create it with \(login.with(SettingsOptions.storage, StorageKind.encrypted.rawValue).quoted)"
        case .passphraseWithoutKernelKeyring:
            return "each command will ask for the passphrase on the terminal, or read --passphrase-file / $KCAUTH_PASSPHRASE_FILE"
        case .unlockStore:
            return "run \(QuotedCommand(UnlockCommand.spec).quoted) (once per boot, from any terminal), or give --passphrase-file / $KCAUTH_PASSPHRASE_FILE"
        case .givePassphraseFile: return "give --passphrase-file PATH (or $KCAUTH_PASSPHRASE_FILE) with a file of mode 0600"
        case .moveDamagedSessionAway: return "nothing was changed; move the file away and log in again (\(login.quoted) asks before replacing it)"
        case .relockStore: return "run \(QuotedCommand(LockCommand.spec).quoted) to remove it, then \(QuotedCommand(UnlockCommand.spec).quoted)"
        case .readableCAFile: return "pass a readable PEM file to --ca-file"
        case .retryOrCheckProvider: return "the provider is slow or stuck; try again, or check it with \(QuotedCommand(DoctorCommand.spec).quoted)"
        // MARK: the system's adapters
        // One line of at most 240 characters with its message: both ways out, nothing more.
        case .startKeyring:
            return "start a keyring daemon (headless: `gnome-keyring-daemon --unlock`)" + chooseAStore
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
        case .unlockKeyringOrChooseStore: return text(.unlockKeyring) + chooseAStore
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
            if issuer { command = command.with(SettingsOptions.issuer, "https://sso.example.com/realms/REALM") }
            if clientID { command = command.with(SettingsOptions.clientID, "CLIENT") }
            return "run \(command.quoted)" + (issuer ? " (or --server URL --realm NAME instead of --issuer)" : "")
        case .passSettings: return "pass the settings as flags: \(login.with(CommandTable.help).quoted)"
        case .noSuchProfile(let name):
            return "see \(QuotedCommand(ProfilesCommand.spec).quoted); \(login.with(CommandTable.profile, name).quoted) creates it"
        // MARK: flows, settings, storage
        case .useFixedPort: return fixedPortAfterTimeout
        case .checkClientOrRedirectURI(let refused): return refusedAuthorization(refused)
        case .useBrowserFlow: return "sign in with the browser flow: \(login.with(LoginFlowOptions.browser).quoted)"
        case .useBrowserFlowOrEnableDevice(let clientID):
            return "the device flow is not enabled for client '\(clientID)': sign in with the browser flow "
                + "(\(login.with(LoginFlowOptions.browser).quoted)), or ask an admin to enable the device authorization grant for it"
        case .signInAgainThenCheckClient: return "run \(login.quoted) again; if it keeps failing, check the client's settings at the provider"
        case .signInAgainThenCheckPrograms: return "run \(login.quoted) again; if this repeats, check which programs run on this machine"
        case .pushAuthorizationRequests:
            return "if the provider requires pushed authorization requests without saying so (Keycloak can), sign in with \(par(.always))"
        case .checkClientOrSkipPushedAuthorization:
            return "check the client's settings at the provider, or sign in without a pushed request (\(par(.never)))"
        case .signInWithDPoP: return "sign in with \(login.with(LoginSessionOptions.dpop).quoted) to use DPoP with this provider"
        case .signInWithClientCredentials(let profile):
            return "run \(login.with(CommandTable.profile, profile).with(LoginClientOptions.clientCredentials).quoted) with the client's secret or key"
        case .askWithoutUserinfo: return "run \(QuotedCommand(WhoAmICommand.spec).quoted) without --\(WhoAmICommand.userinfo.long)"
        case .fixDefaultProfile: return "fix the file by hand, or run \(QuotedCommand(UseCommand.spec).argument("NAME").quoted)"
        case .useClientKey: return "use a signed assertion (--client-key) if it offers private_key_jwt"
        case .fixSavedIssuer: return "fix the issuer in the file, or pass --issuer"
        case .exampleBrowserCommand: return "e.g. --browser-command 'firefox --private-window %s'"
        case .createProfileOrChangeFile(let profile, let file):
            return "run \(login.with(CommandTable.profile, profile).quoted) to create it, or change \(file)"
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

    /// `kcauth login`, which most remedies quote.
    static var login: QuotedCommand { QuotedCommand(LoginCommand.spec) }

    /// `--par MODE` as login takes it.
    static func par(_ mode: PARMode) -> String {
        "`--\(LoginSessionOptions.par.long) \(mode.rawValue)`"
    }

    /// Only ever advice: kcauth never falls back to a plaintext file by itself; the stores that
    /// keep a session without a keyring are named (the passphrase-protected one first), short
    /// enough that the error stays one line of at most 240 characters.
    static var chooseAStore: String {
        ", or use a store that needs none: \(login.with(SettingsOptions.storage, StorageKind.encrypted.rawValue).quoted)"
            + " or `--\(SettingsOptions.storage.long) \(StorageKind.file.rawValue)`"
    }

    /// The settings a refused authorization request points at: the client id, or the redirect
    /// URIs the client allows (with the way to a fixed port where the provider may compare them
    /// exactly).
    static func refusedAuthorization(_ refused: RefusedAuthorization) -> String {
        let client = "check --\(SettingsOptions.clientID.long) '\(Sanitize.oneLine(refused.clientID, limit: 100))': "
            + "it must be the id of a client registered at the provider"
        var redirect = "check the redirect URIs the client allows at the provider: they must include \(refused.redirectURI)"
        if refused.anyPortAccepted {
            redirect += " (without a port, any port is accepted)"
        } else if refused.fixedPortMayHelp {
            redirect += "; a provider that compares redirect URIs exactly needs a fixed port: register "
                + "http://127.0.0.1:8400/callback and pass --\(SettingsOptions.port.long) 8400"
        }
        switch refused.suspect {
        case .clientID: return client
        case .redirectURI: return redirect
        case .either: return client + "; and " + redirect
        }
    }

    /// A line shown under the "waiting" message of a browser sign-in.
    static let fixedPortWhileWaiting = "If the browser shows an error from the provider instead, the provider may require "
        + "a fixed --port registered as an exact redirect URI."

    /// `useFixedPort`: the hint of a browser sign-in that timed out.
    static let fixedPortAfterTimeout = "if the browser showed an error from the provider, it may require a fixed --port "
        + "registered as an exact redirect URI (e.g. --port 8400 with http://127.0.0.1:8400/callback)"
}
