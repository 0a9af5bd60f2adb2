import KCAuth
import KCAuthCore

/// `kcauth login`: resolve the settings (flags, then environment, then the saved profile), choose
/// the flow (browser or device, `LoginFlowOptions`), run it, save the settings that worked.
enum LoginCommand: Command {
    static let spec = CommandSpec(
        "login", summary: "Sign in (browser or device flow) and store the session",
        description: """
        Signs in with the browser flow (authorization code with PKCE, RFC 8252: the system \
        browser opens the provider's sign-in page and the answer comes back to a listener on \
        127.0.0.1; the browser is started at a one-shot local address that sends it on to the \
        provider and binds it to this login, so only that browser, and only your user, can \
        deliver the answer, and a second use of that address stops the login) or with the \
        device flow (RFC 8628: open a link on any other device, such as \
        a phone, and confirm a code there). kcauth prefers the browser, and uses the device flow \
        when there is no way to show one: no DISPLAY or WAYLAND_DISPLAY and no BROWSER, an SSH \
        session without a forwarded display, CI=true, BROWSER=none, or a browser that fails to \
        start (a launcher that exits non-zero within seconds counts). --browser and --device choose for \
        the profile from then on. When no browser can be shown here (--no-browser, SSH without a \
        forwarded display, a failed launcher) and stdin is a terminal, the address the browser \
        could not load after signing in (http://127.0.0.1:PORT/callback?...) can be pasted back \
        at the prompt; it is checked like a redirect. On WSL the Windows browser is used \
        (wslview, powershell.exe, cmd.exe). The ID token is \
        verified, and the session is stored in the desktop keyring (Secret Service), or where \
        --storage says. The settings used are saved in the profile, so the next `kcauth login` \
        needs no flags; while the session is valid it only says who is signed in (--force signs \
        in again). With no issuer on a terminal, it asks for one and for the client id. \
        --client-credentials signs in as a confidential client itself, with no person (CI): \
        the secret comes from KCAUTH_CLIENT_SECRET or --client-secret-file, never from the \
        command line; --client-key signs a fresh assertion per request (private_key_jwt); \
        --client-assertion-file sends a platform's assertion. --dpop binds the session to a key \
        kcauth makes and keeps with it (RFC 9449): a copied refresh token is useless without the \
        key; --dpop-mode refresh-only is for providers that bind only the refresh token. When the \
        provider offers pushed authorization requests (RFC 9126), the request is pushed and the \
        browser gets only client_id and request_uri, pushed when the browser arrives (--par; \
        --par always for providers that require it without saying so, such as Keycloak).
        """,
        usage: "{--issuer URL | --server URL --realm NAME} --client-id ID [flags]",
        options: [
            SettingsOptions.issuer, SettingsOptions.server, SettingsOptions.realm, SettingsOptions.clientID, SettingsOptions.scope,
            SettingsOptions.profile, SettingsOptions.port, SettingsOptions.timeout, SettingsOptions.caFile, LoginFlowOptions.noBrowser,
        ] + LoginFlowOptions.options + [
            LoginBrowserOptions.browserCommand,
            SettingsOptions.storage, EncryptedStoreOptions.passphraseFile,
            LoginStorage.output,
        ] + LoginRequestOptions.options + LoginSessionOptions.options + LoginClientOptions.options,
        examples: [
            "kcauth login --server https://sso.example.com --realm demo --client-id cli",
            "kcauth login --issuer https://sso.example.com/realms/demo --client-id cli",
            "kcauth login --port 8400 --no-browser   # the profile keeps the rest",
            "kcauth login --device --qr   # sign in on your phone",
            "kcauth login --storage memory -o raw   # CI: print the token, keep nothing",
            "kcauth login --client-credentials --storage memory -o raw   # CI, a secret",
            "kcauth login --idp-hint github --ui-locales de   # kept for the profile",
            "kcauth login --dpop   # tokens bound to a key of the session (RFC 9449)",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        try run(command, services, kubectl: false)
    }

    /// `kubectl`: signing in for `kcauth token -o exec-credential` (``KubectlLogin``): nothing is
    /// said about a session found, the caller prints the token.
    static func run(_ command: ParsedCommand, _ services: Services, kubectl: Bool) throws {
        let flowOptions = try LoginFlowOptions(command)
        let flags = try LoginShortcuts.flags(command, flow: flowOptions.flag, workingDirectory: services.context.adapters.workingDirectory)
        var chosen = try FirstRun.complete(try services.context.resolve(flags), flags: flags, services)
        if try EncryptedStoreOffer.accepted(chosen, services) {
            chosen.storage = Setting(.encrypted, .flag, origin: .answer)
        }
        let profile = chosen
        guard profile.issuer != nil else {
            throw KCAuthError(.usage, "no issuer for profile '\(profile.name)'", hint: "pass --issuer URL, or --server URL --realm NAME")
        }
        guard profile.clientID != nil else {
            throw KCAuthError(.usage, "no client id for profile '\(profile.name)'", hint: "pass --client-id ID (the public client registered at the provider)")
        }
        if profile.usesClientCredentials { return try LoginShortcuts.clientCredentials(command, profile, services) }
        let authorization = try LoginRequestOptions.oneOff(command)
        let remembered = flowOptions.remembered(profile.saved)
        func signedIn(evenWithForce: Bool = false) throws -> Bool {
            if kubectl { return evenWithForce && services.context.currentSession(profile).find(oneOff: authorization, rememberedFlow: remembered) != nil }
            return try LoginShortcuts.alreadySignedIn(command, profile, oneOff: authorization, rememberedFlow: remembered, services,
                                                      evenWithForce: evenWithForce)
        }
        if try signedIn() { return }
        let signIn = { try flow(command, services, profile, flowOptions, authorization: authorization, kubectl: kubectl) }
        // A memory session is this process's alone: nothing to wait for, nothing to share.
        if profile.storage.value == .memory { return try signIn() }
        // One sign-in in flight per profile (issue 18 #1): a caller that finds one in progress
        // waits for it rather than opening a second browser.
        let force = command.flag(LoginRequestOptions.force)
        let now = services.context.clock.instant
        for _ in 0..<2 {
            let result = try services.context.oneSignIn(profile).run(
                force: force, notify: { SignInWaitOutput.report($0, profile: profile.name, now: now, console: services.console) },
                stillNeeded: { try !force && signedIn(evenWithForce: kubectl) ? false : true }, signIn: signIn)
            // Another process signed in: this is the session to use, said as `login` says it.
            switch result {
            case .signedIn, .notNeeded: return   // `stillNeeded` already said who is signed in
            case .signedInElsewhere: if try signedIn(evenWithForce: true) { return }
            }
            // It stored a session other than the one asked for (other flags): a person asked
            // for this one, so sign in now that nobody else does.
        }
        throw KCAuthError(.loginRequired, "no session for profile '\(profile.name)' after the other sign-in", remedy: .signIn(profile: profile.name))
    }

    /// The flow itself, while this process holds the profile's sign-in lock.
    static func flow(_ command: ParsedCommand, _ services: Services, _ profile: ResolvedProfile, _ flowOptions: LoginFlowOptions,
                     authorization: AuthorizationParameters, kubectl: Bool) throws {
        if kubectl { services.console.err("kcauth: kubectl needs a token for profile '\(profile.name)': signing in.\n") }
        let noBrowser = command.flag(LoginFlowOptions.noBrowser)
        let choice = flowOptions.choice(profile, noBrowser: noBrowser, environment: services.environment)
        let console = services.console
        // Over SSH without a display a browser started here opens far away: paste-back instead.
        let openBrowser = !noBrowser && !FlowSelector.browserIsRemote(services.environment)
        let progress = LoginProgress(console: console, choice: choice, openBrowser: openBrowser,
                                     qrRequested: flowOptions.qrRequested, environment: services.environment)
        let options = SignIn.Options(flow: choice, openBrowser: openBrowser, rememberedFlow: flowOptions.remembered(profile.saved),
                                     authorization: authorization)
        let output: SignIn.Output
        do {
            defer { progress.end() }  // the countdown line must not swallow the error message
            output = try services.context.signIn(profile).run(options) { event in
                if case .flow(let step) = event { progress.show(step) } else { LoginStorage.report(event, profile: profile.name, console: console) }
            }
        }
        console.err("Logged in to \(output.state.issuer) as \(Sanitize.oneLine(output.claims.displayName(userinfo: output.state.userinfo))) (profile '\(profile.name)').\n")
        switch output.notice {
        case .providerDidNotBind?:
            console.err("Note: the provider issued Bearer tokens although kcauth sent a DPoP proof: it did not bind the session to kcauth's key (check the client's DPoP settings). The session works as a Bearer one.\n")
        case .accessTokenBound?:
            console.err("Note: the provider bound the access token to kcauth's key (token type DPoP): tools that know only Bearer tokens (kubectl, git) cannot use it; kcauth token -o header --dpop-url URL gives a proof.\n")
        case nil:
            break
        }
        LoginStorage.deliver(output, format: command.value(LoginStorage.output), profile: profile.name, now: services.context.clock.instant, console: console)
    }
}
