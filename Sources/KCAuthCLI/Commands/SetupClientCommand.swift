import KCAuthCore

/// `kcauth setup-client`: the Keycloak client kcauth needs, as importable JSON and as `kcadm.sh`
/// commands (`KeycloakClientTemplate`). Prints text only: no network, nothing stored.
enum SetupClientCommand: Command {
    static let spec = CommandSpec(
        "setup-client", summary: "Print the Keycloak client kcauth needs (JSON, kcadm.sh)",
        description: """
        Prints a Keycloak client for kcauth: public, standard flow on, OAuth 2.0 device grant on, \
        PKCE S256 required, redirect URI http://127.0.0.1/callback (any port), direct access \
        grants off. By default it prints the JSON (for Clients → Import client in the admin \
        console) and the equivalent kcadm.sh commands; -o json prints only the JSON, -o kcadm \
        only the commands. Makes no network call.
        """,
        usage: "--server URL --realm NAME --client-id ID [flags]",
        options: [server, realm, clientID, output,
        ],
        examples: [
            "kcauth setup-client --server https://sso.example --realm dev --client-id cli",
            "kcauth setup-client --client-id cli -o json > kcauth-client.json",
        ])

    static let server = OptionSpec("server", value: "URL", help: "Keycloak base URL (not needed with -o json)")
    static let realm = OptionSpec("realm", value: "NAME", help: "Realm to create the client in (not needed with -o json)")
    static let clientID = OptionSpec("client-id", value: "ID", help: "Client id to create")
    static let output = OptionSpec("output", short: "o", value: "FORMAT", help: "Only the JSON, or only the kcadm.sh commands", choices: ["json", "kcadm"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        for option in [server, realm, clientID] { try command.value(option).map { try InputText.check($0, from: "--" + option.long) } }
        guard let clientID = command.value(clientID) else {
            throw KCAuthError(.usage, "setup-client needs --client-id ID",
                              hint: "the id users will pass to \(QuotedCommand(LoginCommand.spec).withPlaceholder(SettingsOptions.clientID).quoted)")
        }
        let template = try KeycloakClientTemplate(clientID: clientID)
        let format = command.value(output)
        if format == "json" {
            services.console.out(template.json)
            return
        }
        let (server, realm, issuer) = try target(command)
        let script = template.kcadm(server: server, realm: realm)
        if format == "kcadm" {
            services.console.out(script)
            return
        }
        services.console.out("""
            # Keycloak client for kcauth in realm \(realm) at \(server).
            # Import it in the admin console (Clients → Import client), or run the kcadm.sh commands below.

            \(template.json)
            # The same with kcadm.sh:
            \(script)
            # Then sign in with:
            #   \(QuotedCommand(LoginCommand.spec).with(SettingsOptions.issuer, issuer).with(SettingsOptions.clientID, Shell.quote(clientID)))

            """)
    }

    /// Server, realm and the issuer they make, checked like `login` checks them.
    static func target(_ command: ParsedCommand) throws -> (server: String, realm: String, issuer: String) {
        guard var server = command.value(server), let realm = command.value(realm) else {
            throw KCAuthError(.usage, "setup-client needs --server URL and --realm NAME", hint: "or pass -o json for the client JSON alone")
        }
        guard !realm.isEmpty, !realm.contains("/"), realm.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(realm))' is not a realm name")
        }
        while server.hasSuffix("/") { server.removeLast() }
        let issuer = try IssuerPolicy.normalizedIssuer(server + "/realms/" + FormEncoding.escape(realm))
        return (server, realm, issuer)
    }
}
