import KCAuthContract
import KCAuthCore

/// The options that feed the settings resolver, shared by the commands that take them, and the
/// one function that turns a parsed command into `SettingsFlags`: it checks what was typed and
/// says what is wrong with it by the option's name, so that the resolver gets typed values.
/// Their variables and the values they take come from the settings catalogue (KCAuthContract),
/// as the front reads them.
enum SettingsOptions {
    /// The variable of a setting, from its catalogue row.
    static func variable(_ key: String) -> String? { SettingsCatalogue.row(key: key)?.environment }

    static let profile = OptionSpec("profile", value: "NAME", help: "Profile to use", default: "default",
                                    environment: SettingsCatalogue.profile.environment,
                                    completes: .profiles)
    static let issuer = OptionSpec("issuer", value: "URL", help: "OpenID Provider issuer URL", environment: variable("issuer"))
    static let server = OptionSpec("server", value: "URL", help: "Keycloak base URL (with --realm; issuer = URL/realms/NAME)")
    static let realm = OptionSpec("realm", value: "NAME", help: "Keycloak realm (with --server)")
    static let clientID = OptionSpec("client-id", value: "ID", help: "OAuth client id of a public client", environment: variable("client_id"))
    static let scope = OptionSpec("scope", value: "SCOPES", help: "Scopes to request; openid is always added", default: "openid profile email")
    static let port = OptionSpec("port", value: "N", help: "Loopback port for the redirect (0: any free port)", default: "0")
    static let timeout = OptionSpec("timeout", value: "SECONDS", help: "How long to wait for the browser", default: "300")
    static let caFile = OptionSpec("ca-file", value: "PEM", help: "Trust the CA certificates in this file for the provider's TLS",
                                   environment: variable("ca_file"), completes: .files)
    static let storage = OptionSpec("storage", value: "KIND", help: "Where to keep the session, remembered per profile",
                                    default: "keyring", choices: SettingCheck.environmentStorageKinds, environment: variable("storage"))
    static let flow = OptionSpec("flow", value: "MODE", help: "How to sign in, remembered for the profile",
                                 choices: SettingCheck.flows, environment: variable("flow"))

    /// The options given as text that end up in a profile's settings, in the order they are checked.
    static let texts = [issuer, server, realm, clientID, scope, storage, caFile, port, timeout, LoginBrowserOptions.browserCommand]

    /// What the command line said; options a command does not take are simply absent. Relative
    /// paths are made absolute against `workingDirectory` (they are saved in the profile).
    static func flags(_ c: ParsedCommand, flow: FlowSetting? = nil, workingDirectory: String?) throws -> SettingsFlags {
        let profileName = try profile(c)
        for option in texts { try text(c, option) }
        let (issuerValue, serverValue, realmValue) = (c.value(issuer), c.value(server), c.value(realm))
        if issuerValue != nil, serverValue != nil || realmValue != nil {
            throw KCAuthError(.usage, "give either --issuer or --server with --realm, not both")
        }
        if issuerValue == nil, (serverValue == nil) != (realmValue == nil) {
            throw KCAuthError(.usage, "--server and --realm go together")
        }
        var flags = SettingsFlags(profile: profileName, issuer: issuerValue, server: serverValue, realm: realmValue,
                                  clientID: c.value(clientID), scope: c.value(scope),
                                  storage: try c.value(storage).map { try StorageKind(parsing: $0, source: "--" + storage.long) },
                                  caFile: try c.value(caFile).map { try absolute($0, caFile, workingDirectory: workingDirectory) },
                                  flow: flow ?? c.value(Self.flow).flatMap(FlowSetting.init(rawValue:)),
                                  port: try c.value(port).map(OptionValues.port),
                                  timeout: try c.value(timeout).map { try OptionValues.seconds($0, option: "--" + timeout.long, range: SettingsResolver.timeoutRange) })
        if let command = c.value(LoginBrowserOptions.browserCommand) {
            if command.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                flags.forgetsBrowserCommand = true
            } else {
                flags.browserCommand = try BrowserCommand(command, origin: "--" + LoginBrowserOptions.browserCommand.long)
            }
        }
        return flags
    }

    /// `--profile`, checked as text (its name is checked with the profile from elsewhere).
    static func profile(_ c: ParsedCommand) throws -> String? {
        try text(c, profile)
    }

    /// An option's value, which must be one line of text.
    @discardableResult
    static func text(_ c: ParsedCommand, _ option: OptionSpec) throws -> String? {
        guard let value = c.value(option) else { return nil }
        try InputText.check(value, from: "--" + option.long)
        return value
    }

    /// A path option made absolute: it is saved in the profile, so it must not depend on where
    /// kcauth ran.
    static func absolute(_ path: String, _ option: OptionSpec, workingDirectory: String?) throws -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = workingDirectory, cwd.hasPrefix("/") else {
            throw KCAuthError(.usage, "give --\(option.long) as an absolute path, not '\(Sanitize.oneLine(path))'")
        }
        return cwd + "/" + path
    }
}
