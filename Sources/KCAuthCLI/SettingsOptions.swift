import KCAuthContract
import KCAuthCore

/// The options that feed the settings resolver, shared by the commands that take them, and the
/// one function that turns a parsed command into `SettingsFlags`. Their variables and the values
/// they take come from the settings catalogue (KCAuthContract), as the front reads them.
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

    /// What the command line said; options a command does not take are simply absent.
    static func flags(_ c: ParsedCommand, flow: FlowSetting? = nil) -> SettingsFlags {
        SettingsFlags(profile: c.value(profile), issuer: c.value(issuer), server: c.value(server), realm: c.value(realm),
                      clientID: c.value(clientID), scope: c.value(scope), storage: c.value(storage), caFile: c.value(caFile),
                      flow: flow ?? c.value(Self.flow).flatMap(FlowSetting.init(rawValue:)), port: c.value(port), timeout: c.value(timeout),
                      browserCommand: c.value(LoginBrowserOptions.browserCommand))
    }
}
