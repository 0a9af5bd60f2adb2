import KCAuthCore

/// `kcauth login`: resolve the settings (flags, then environment, then the saved profile), run the
/// browser flow, save the settings that worked.
enum LoginCommand {
    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try services.profile(command)
        let settingsStore = services.settings
        var config = try settingsStore.load()
        let saved = try ProfileSettings(config, profile: profile, path: settingsStore.path)
        let input = try resolve(command, saved: saved, environment: services.environment, profile: profile)

        let console = services.console
        let login = Login(http: services.http, clock: services.clock, random: services.random, store: services.store,
                          opener: services.opener, receiver: services.receiver)
        let output = try login.run(input) { event in
            switch event {
            case .authorizationURL(let url):
                console.err(input.openBrowser
                    ? "Opening the browser to sign in. If it does not open, visit:\n  \(url)\n"
                    : "Open this URL in a browser on this machine to sign in:\n  \(url)\n")
            case .browserFailed(let error):
                console.err("Could not start a browser (\(error.message)); open the URL above yourself.\n")
            case .waiting(let redirectURI, let timeout):
                console.err("Waiting for the sign-in response on \(redirectURI) (up to \(Int(timeout)) s)…\n")
            case .received:
                break
            }
        }
        ProfileSettings(issuer: input.issuer, clientID: input.clientID, scope: input.scope,
                        port: input.port == 0 ? nil : input.port)
            .apply(to: &config, profile: profile)
        try settingsStore.save(config)
        console.err("Logged in to \(input.issuer) as \(Sanitize.oneLine(output.claims.displayName)) (profile '\(profile)').\n")
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
