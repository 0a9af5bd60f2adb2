import KCAuthCore

/// The CLI's words for the core's typed remedies: what to type next, with the flags and
/// commands only the CLI knows.
enum RemedyWords {
    static func words(_ remedy: KCAuthError.Remedy) -> String {
        switch remedy {
        case .signIn(let profile): return LoginHint.command(profile: profile)
        case .signInAgain(let profile): return LoginHint.command(profile: profile) + " again"
        // MARK: login and sessions (helper C)
        case .signInWithoutDPoP: return "sign in without --dpop (`kcauth login --dpop no`)"
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
