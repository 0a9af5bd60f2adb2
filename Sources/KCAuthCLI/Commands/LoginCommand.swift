import FoundationEssentials
import KCAuthCore

/// `kcauth login`: resolve the settings (flags, then environment, then the saved profile), run the
/// browser flow, save the settings that worked.
enum LoginCommand: Command {
    static let spec = CommandSpec(
        "login", summary: "Sign in through the browser and store the session",
        description: """
        Opens the system browser at the provider's sign-in page (authorization code flow with \
        PKCE, RFC 8252) and receives the answer on a listener bound to 127.0.0.1. The ID token is \
        verified, and the session is stored in the desktop keyring (Secret Service). The settings \
        used are saved in the profile, so the next `kcauth login` needs no flags.
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
            OptionSpec("ca-file", value: "PEM", help: "Trust the CA certificates in this file for the provider's TLS", environment: "KCAUTH_CA_FILE"),
            OptionSpec("no-browser", help: "Print the sign-in URL instead of opening a browser"),
        ],
        examples: [
            "kcauth login --server https://sso.example.com --realm demo --client-id cli",
            "kcauth login --issuer https://sso.example.com/realms/demo --client-id cli",
            "kcauth login --port 8400 --no-browser   # the profile keeps the rest",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try services.profile(command)
        let settingsStore = services.settings
        var config = try settingsStore.load()
        let saved = try ProfileSettings(config, profile: profile, path: settingsStore.path)
        let input = try resolve(command, saved: saved, environment: services.environment, profile: profile)
        let caFile = try resolveCAFile(command, saved: saved, environment: services.environment)

        let console = services.console
        let login = Login(http: services.http(caFile: caFile), clock: services.clock, random: services.random, store: try services.store(for: profile),
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
                        port: input.port == 0 ? nil : input.port, caFile: caFile)
            .apply(to: &config, profile: profile)
        try settingsStore.save(config)
        console.err("Logged in to \(input.issuer) as \(Sanitize.oneLine(output.claims.displayName)) (profile '\(profile)').\n")
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
