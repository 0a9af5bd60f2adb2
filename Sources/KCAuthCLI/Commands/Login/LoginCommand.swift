import KCAuth
import KCAuthCore

/// `kcauth login`: resolve the settings (flags, then environment, then the saved profile), choose
/// the flow (browser or device, `LoginFlowOptions`), run it, save the settings that worked.
enum LoginCommand: Command {
    static let spec = CommandSpec(
        "login", summary: "Sign in (browser or device flow) and store the session",
        overview: """
        Signs in with the browser, or with a code on another device where no browser can be \
        shown, and keeps the session in the keyring (or where --storage says). The profile \
        remembers the settings, so the next `kcauth login` needs no flags.
        """,
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
        --client-assertion-from sends a platform's assertion, fetched again for every token \
        request (github-actions, env:NAME, file:PATH, command:PROGRAM ARG...), so a CI job \
        needs no stored secret however long it runs. --dpop binds the session to a key \
        kcauth makes and keeps with it (RFC 9449): a copied refresh token is useless without the \
        key; --dpop-mode refresh-only is for providers that bind only the refresh token. When the \
        provider offers pushed authorization requests (RFC 9126), the request is pushed and the \
        browser gets only client_id and request_uri, pushed when the browser arrives (--par; \
        --par always for providers that require it without saying so, such as Keycloak).
        """,
        usage: "{--issuer URL | --server URL --realm NAME} --client-id ID [flags]",
        options: ownOptions + SettingsOptions.plain(besides: ownOptions),
        examples: [
            "kcauth login --server https://sso.example.com --realm demo --client-id cli",
            "kcauth login --issuer https://sso.example.com/realms/demo --client-id cli",
            "kcauth login --port 8400 --no-browser   # the profile keeps the rest",
            "kcauth login --device --qr   # sign in on your phone",
            "kcauth login --storage memory -o raw   # CI: print the token, keep nothing",
            "kcauth login --client-credentials --storage memory -o raw   # CI, a secret",
            "kcauth login --client-credentials --client-assertion-from github-actions",
            "kcauth login --idp-hint github --ui-locales de   # kept for the profile",
            "kcauth login --dpop   # tokens bound to a key of the session (RFC 9449)",
        ])

    /// Its options in the order its help lists them; the plain settings (``SettingRow/plain``)
    /// follow, each made from its catalogue row.
    static let ownOptions = [
        SettingsOptions.issuer, SettingsOptions.server, SettingsOptions.realm, SettingsOptions.clientID, SettingsOptions.scope,
        SettingsOptions.profile, SettingsOptions.port, SettingsOptions.timeout, SettingsOptions.caFile, LoginFlowOptions.noBrowser,
    ] + LoginFlowOptions.options + [
        LoginBrowserOptions.browserCommand,
        SettingsOptions.storage, EncryptedStoreOptions.passphraseFile,
        LoginStorage.output,
    ] + LoginRequestOptions.options + LoginSessionOptions.options + LoginClientOptions.options

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let flowOptions = try LoginFlowOptions(command)
        let flags = try LoginFlags.flags(command, flow: flowOptions.flag, workingDirectory: services.context.adapters.workingDirectory)
        let authorization = try LoginRequestOptions.oneOff(command)
        let login = try services.context.login(flags)
        let console = services.console
        let format = LoginStorage.format(command)
        let options = Login.Options(noBrowser: command.flag(LoginFlowOptions.noBrowser), qr: flowOptions.qrRequested,
                                    authorization: authorization, force: command.flag(LoginRequestOptions.force),
                                    wantsToken: format != nil, canAsk: console.stderrIsTTY,
                                    offerEncryptedStore: { try EncryptedStoreOffer.accepted($0, services) })
        let output = LoginOutput(profile: login.profile.name, console: console, clock: services.context.clock,
                                 progress: LoginProgress(console: console, qrRequested: flowOptions.qrRequested,
                                                         environment: services.environment, qrCode: services.context.adapters.qrCode))
        let result: Login.Result
        do {
            defer { output.progress.end() }  // the countdown line must not swallow the error message
            result = try ProgramSignals.onEnding({ [progress = output.progress] in progress.interrupted() }) {
                try login.run(options, notify: output.show)
            }
        }
        output.present(result, format: format)
    }
}
