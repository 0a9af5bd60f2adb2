/// Every command and option kcauth has. Help, the man page and the shell completions are all
/// generated from this table, and tests check that the parser accepts exactly what it lists.
public enum CommandTable {
    static let help = OptionSpec("help", short: "h", help: "Show help for this command")
    static let generalHelp = OptionSpec("help", short: "h", help: "Show this help")

    static let profile = OptionSpec("profile", value: "NAME", help: "Profile to use", default: "default", environment: "KCAUTH_PROFILE")

    public static let login = CommandSpec(
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
            profile,
            OptionSpec("port", value: "N", help: "Loopback port for the redirect (0: any free port)", default: "0"),
            OptionSpec("timeout", value: "SECONDS", help: "How long to wait for the browser", default: "300"),
            OptionSpec("no-browser", help: "Print the sign-in URL instead of opening a browser"),
        ],
        examples: [
            "kcauth login --server https://sso.example.com --realm demo --client-id cli",
            "kcauth login --issuer https://sso.example.com/realms/demo --client-id cli",
            "kcauth login --port 8400 --no-browser   # the profile keeps the rest",
        ])

    public static let token = CommandSpec(
        "token", summary: "Print the access token for scripts",
        description: """
        Prints the stored access token of the profile on stdout, followed by a newline, and \
        nothing else. Needs no network. When the token has expired, kcauth says so on stderr and \
        exits with status 4.
        """,
        options: [profile],
        examples: ["curl -H \"Authorization: Bearer $(kcauth token)\" https://api.example.com/"])

    public static let refresh = CommandSpec(
        "refresh", summary: "Refresh the stored tokens now (not implemented yet)",
        description: "Not implemented yet: prints a message and exits with status 1.",
        options: [profile])

    public static let logout = CommandSpec(
        "logout", summary: "Sign out and delete the stored session (not implemented yet)",
        description: "Not implemented yet: prints a message and exits with status 1.",
        options: [profile])

    public static let whoami = CommandSpec(
        "whoami", summary: "Show who is signed in (not implemented yet)",
        description: "Not implemented yet: prints a message and exits with status 1.",
        options: [profile])

    public static let helpCommand = CommandSpec(
        "help", summary: "Show help for kcauth or one of its commands",
        description: "Shows the list of commands, or the usage and flags of one command.",
        usage: "[<command>]", options: [], positionals: ["command"])

    public static let commands: [CommandSpec] = [login, token, refresh, logout, whoami, helpCommand]

    /// Options accepted before a command name.
    public static let topLevelOptions: [OptionSpec] = [
        generalHelp,
        OptionSpec("version", help: "Print kcauth's version"),
    ]

    public static func command(named name: String) -> CommandSpec? { commands.first { $0.name == name } }
}
