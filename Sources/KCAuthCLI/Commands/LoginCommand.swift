import FoundationEssentials
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
        start. --browser and --device choose for the profile from then on. The ID token is \
        verified, and the session is stored in the desktop keyring (Secret Service), or where \
        --storage says. The settings used are saved in the profile, so the next `kcauth login` \
        needs no flags.
        """,
        usage: "{--issuer URL | --server URL --realm NAME} --client-id ID [flags]",
        options: [
            OptionSpec("issuer", value: "URL", help: "OpenID Provider issuer URL", environment: "KCAUTH_ISSUER"),
            OptionSpec("server", value: "URL", help: "Keycloak base URL (with --realm; issuer = URL/realms/NAME)"),
            OptionSpec("realm", value: "NAME", help: "Keycloak realm (with --server)"),
            OptionSpec("client-id", value: "ID", help: "OAuth client id of a public client", environment: "KCAUTH_CLIENT_ID"),
            OptionSpec("scope", value: "SCOPES", help: "Scopes to request; openid is always added", default: "openid profile email"),
            CommandTable.profile,
            OptionSpec("port", value: "N", help: "Loopback port for the redirect (0: any free port)", default: "0"),
            OptionSpec("timeout", value: "SECONDS", help: "How long to wait for the browser", default: "300"),
            OptionSpec("ca-file", value: "PEM", help: "Trust the CA certificates in this file for the provider's TLS", environment: "KCAUTH_CA_FILE",
                       completes: .files),
            OptionSpec("no-browser", help: "Print the sign-in URL instead of opening a browser"),
        ] + LoginFlowOptions.options + [
            LoginStorage.option,
            LoginStorage.output,
        ],
        examples: [
            "kcauth login --server https://sso.example.com --realm demo --client-id cli",
            "kcauth login --issuer https://sso.example.com/realms/demo --client-id cli",
            "kcauth login --port 8400 --no-browser   # the profile keeps the rest",
            "kcauth login --device --qr   # sign in on your phone",
            "kcauth login --storage memory -o raw   # CI: print the token, keep nothing",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try services.profile(command)
        let settingsStore = services.settings
        var config = try settingsStore.load()
        let saved = try ProfileSettings(config, profile: profile, path: settingsStore.path)
        var input = try resolve(command, saved: saved, environment: services.environment, profile: profile)
        let caFile = try resolveCAFile(command, saved: saved, environment: services.environment)
        let flow = try LoginFlowOptions(command, saved: saved, environment: services.environment)
        input.flow = flow.choice.flow
        input.fallBackToDevice = flow.choice.fallsBackToDevice

        let console = services.console
        let storage = try LoginStorage(command, services, profile: profile, saved: saved)
        let login = Login(http: services.context.http(caFile: caFile), clock: services.clock, random: services.random, store: storage.store,
                          opener: services.opener, receiver: services.receiver, sleeper: services.sleeper)
        let progress = LoginProgress(console: console, choice: flow.choice, openBrowser: input.openBrowser,
                                     qrRequested: flow.qrRequested, environment: services.environment)
        let output: Login.Output
        do {
            defer { progress.end() }  // the countdown line must not swallow the error message
            output = try login.run(input, notify: progress.show)
        }
        ProfileSettings(issuer: input.issuer, clientID: input.clientID, scope: input.scope,
                        port: input.port == 0 ? nil : input.port, caFile: caFile, storage: storage.setting,
                        flow: flow.remembered(saved))
            .apply(to: &config, profile: profile)
        if storage.savesSettings { try settingsStore.save(config) }
        // A new session: the runtime copy of the old access token must not outlive it.
        services.context.invalidateCachedToken(profile: profile)
        console.err("Logged in to \(input.issuer) as \(Sanitize.oneLine(output.claims.displayName)) (profile '\(profile)').\n")
        storage.deliver(output.state, profile: profile, console: console)
    }

    /// `--ca-file`, `$KCAUTH_CA_FILE` or the profile's `ca_file`, as an absolute path (it is saved
    /// in the profile, so it must not depend on the directory kcauth ran in).
    static func resolveCAFile(_ c: ParsedCommand, saved: ProfileSettings, environment: [String: String]) throws -> String? {
        guard let raw = c.value("ca-file") ?? environment["KCAUTH_CA_FILE"].flatMap({ $0.isEmpty ? nil : $0 }) ?? saved.caFile else { return nil }
        if raw.hasPrefix("/") { return raw }
        let cwd = FileManager.default.currentDirectoryPath
        guard cwd.hasPrefix("/") else { throw KCAuthError(.usage, "give --ca-file as an absolute path, not '\(raw)'") }
        return cwd + "/" + raw
    }

    /// Flags win over the environment, which wins over the saved profile.
    static func resolve(_ c: ParsedCommand, saved: ProfileSettings, environment: [String: String], profile: String) throws -> Login.Input {
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let rawIssuer: String
        switch (c.value("issuer"), c.value("server"), c.value("realm")) {
        case (.some, .some, _), (.some, _, .some):
            throw KCAuthError(.usage, "give either --issuer or --server with --realm, not both")
        case (.some(let issuer), nil, nil):
            rawIssuer = issuer
        case (nil, .some(let server), .some(let realm)):
            guard !realm.isEmpty, !realm.contains("/") else { throw KCAuthError(.usage, "'\(realm)' is not a realm name") }
            rawIssuer = (server.hasSuffix("/") ? String(server.dropLast()) : server) + "/realms/" + FormEncoding.escape(realm)
        case (nil, .some, nil), (nil, nil, .some):
            throw KCAuthError(.usage, "--server and --realm go together")
        case (nil, nil, nil):
            guard let issuer = env("KCAUTH_ISSUER") ?? saved.issuer else {
                throw KCAuthError(.usage, "no issuer for profile '\(profile)'", hint: "pass --issuer URL, or --server URL --realm NAME")
            }
            rawIssuer = issuer
        }
        guard let clientID = c.value("client-id") ?? env("KCAUTH_CLIENT_ID") ?? saved.clientID, !clientID.isEmpty else {
            throw KCAuthError(.usage, "no client id for profile '\(profile)'", hint: "pass --client-id ID (the public client registered at the provider)")
        }
        let port: UInt16
        if let raw = c.value("port") {
            guard let p = UInt16(raw) else { throw KCAuthError(.usage, "--port takes a number from 0 to 65535, not '\(raw)'") }
            port = p
        } else {
            port = saved.port ?? 0
        }
        var timeout = 300.0
        if let raw = c.value("timeout") {
            guard let t = Double(raw), t > 0, t <= 86400 else { throw KCAuthError(.usage, "--timeout takes a number of seconds from 1 to 86400, not '\(raw)'") }
            timeout = t
        }
        return Login.Input(profile: profile, issuer: try IssuerPolicy.normalizedIssuer(rawIssuer), clientID: clientID,
                           scope: Scope.normalize(c.value("scope") ?? saved.scope ?? Scope.defaultScope),
                           port: port, timeout: timeout, openBrowser: !c.flag("no-browser"))
    }
}
