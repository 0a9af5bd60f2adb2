import KCAuthCore

/// The CLI's words for a typed remedy (``KCAuthError/Remedy``): the core says what fixes it, the
/// command line says how a person does that here (a flag, a command to copy).
enum RemedyWords {
    static func text(_ remedy: KCAuthError.Remedy) -> String {
        switch remedy {
        case .signIn(let profile): return LoginHint.command(profile: profile)
        case .signInAgain(let profile): return LoginHint.command(profile: profile) + " again"
        // MARK: integrations (helper A)
        case .addEntryByHand: return "add the entry printed by `kcauth kubeconfig` by hand"
        // MARK: doctor, stores, ssh (helper B)
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
        // MARK: login and sessions (helper C)
        case .giveClientCredential:
            return "export KCAUTH_CLIENT_SECRET, or pass --client-secret-file FILE, --client-key FILE or --client-assertion-file FILE"
        case .giveIssuer: return "pass --issuer URL, or --server URL --realm NAME"
        case .giveClientID: return "pass --client-id ID (the public client registered at the provider)"
        case .loginWithSettings(let profile, let issuer, let clientID):
            var command = LoginHint.login(profile: profile)
            if issuer { command += " --issuer https://sso.example.com/realms/REALM" }
            if clientID { command += " --client-id CLIENT" }
            return "run `\(command)`" + (issuer ? " (or --server URL --realm NAME instead of --issuer)" : "")
        case .passSettings: return "pass the settings as flags: `kcauth login --help`"
        case .noSuchProfile(let name): return "see `kcauth profiles`; `kcauth login --profile \(name)` creates it"
        }
    }
}
