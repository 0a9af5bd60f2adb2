import KCAuth
import KCAuthCore

/// `login`'s words: the first-run questions, "already signed in", another process's sign-in,
/// the flow's progress (`LoginProgress`), the store's notes (`LoginStorage`), and how it ended.
struct LoginOutput: Sendable {
    let profile: String
    let console: any Console
    let clock: any TimeSource
    let progress: LoginProgress

    static let issuerQuestion = "Keycloak server URL (https://sso.example.com) or issuer URL: "
    static let clientIDQuestion = "Client id (of the public client registered for command-line sign-in): "

    func show(_ event: Login.Event) {
        switch event {
        case .firstRun(let missingIssuer):
            console.err("Profile '\(profile)' has no \(missingIssuer ? "provider" : "client id") yet; "
                        + "kcauth asks once and saves the answers with the sign-in (Ctrl-C to stop).\n")
        case .question(.issuer):
            console.err(Self.issuerQuestion)
        case .question(.realm):
            console.err("Realm: ")
        case .question(.clientID):
            console.err(Self.clientIDQuestion)
        case .answerNotTaken(let error):
            console.err("That did not work: \(Sanitize.oneLine(MessageWords.message(error)))" + (LoginHint.hint(for: error).map { "; \($0)" } ?? "") + "\n")
        case .providerFound(let issuer):
            console.err("Found the provider: \(issuer)\n")
        case .alreadySignedIn(let found):
            let until = found.until.map { " until " + RelativeTime.stamp($0, now: clock.instant) } ?? ""
            console.err("Already logged in to \(found.state.issuer) as \(Sanitize.oneLine(found.user)) (profile '\(profile)')\(until); "
                        + "use --force to sign in again.\n")
        case .otherSignIn(let other):
            SignInWaitOutput.report(other, profile: profile, now: clock.instant, console: console)
        case .signingInForKubectl:
            console.err("kcauth: kubectl needs a token for profile '\(profile)': signing in.\n")
        case .flowChosen(let choice, let openBrowser):
            progress.chose(choice, openBrowser: openBrowser)
        case .flow(let step):
            progress.show(step)
        case .movedStore, .oldCopyNotRemoved, .warning:
            LoginStorage.report(event, profile: profile, console: console)
        }
    }

    /// How the login ended; `format`: `-o`, the token once on stdout.
    func present(_ result: Login.Result, format: TokenFormat?) {
        let now = clock.instant
        switch result {
        case .alreadySignedIn(let token):
            guard let token, let format else { return }
            console.out(format.render(token, idToken: false, profile: profile, now: now))
        case .clientSignedIn(let output):
            let who = IdentityClaims(unverifiedToken: output.state.accessToken)?.displayName ?? output.state.clientID
            console.err("Logged in to \(output.state.issuer) as \(Sanitize.oneLine(who)) with the client's credentials, "
                        + "\(output.authentication) (profile '\(profile)').\n")
            if let format {
                console.out(format.render(IssuedToken(output.state), idToken: false, profile: profile, now: now))
            } else if output.storage == .memory {
                console.err("Nothing was kept (--storage memory): \(LoginStorage.printHint) to print the access token.\n")
            }
        case .signedIn(let output):
            console.err("Logged in to \(output.state.issuer) as \(Sanitize.oneLine(output.claims.displayName(userinfo: output.state.userinfo))) (profile '\(profile)').\n")
            switch output.notice {
            case .providerDidNotBind?:
                console.err("Note: the provider issued Bearer tokens although kcauth sent a DPoP proof: it did not bind the session to kcauth's key (check the client's DPoP settings). The session works as a Bearer one.\n")
            case .accessTokenBound?:
                console.err("Note: the provider bound the access token to kcauth's key (token type DPoP): tools that know only Bearer tokens (kubectl, git) cannot use it; \(QuotedCommand(TokenCommand.spec).with(TokenOutput.option, TokenOutput.header.rawValue).withPlaceholder(DPoPTokenOutput.url)) gives a proof.\n")
            case nil:
                break
            }
            LoginStorage.deliver(output, format: format, profile: profile, now: now, console: console)
        }
    }
}
