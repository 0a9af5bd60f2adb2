import KCAuthCore
import KCAuthCrypto
import KCAuthSystem

/// The composition root: the one place that builds the real adapters. Each one is made only
/// when a command asks for it, so `kcauth token` never initialises libcurl or binds a socket.
public struct Services: Sendable {
    public let environment: [String: String]
    public let console: any Console

    public init(environment: [String: String], console: any Console) {
        self.environment = environment
        self.console = console
    }

    var paths: Paths { Paths(environment: environment) }
    var clock: any TimeSource { SystemClock() }
    var random: any RandomSource { SecureRandom() }
    /// The store a profile's session lives in. Today always the keyring; the storage choices
    /// (file, memory) hook in here.
    func store(for profile: String) throws -> any SecretStore { LibSecretStore(environment: environment) }
    var settings: any SettingsStore { FileSettingsStore(path: paths.configFile) }
    func http(caFile: String? = nil) -> OAuthHTTP { OAuthHTTP(CurlTransport(caFile: caFile)) }
    var opener: any URLOpener { BrowserOpener(environment: environment) }
    var receiver: any RedirectReceiver { LoopbackReceiver() }

    /// `--profile`, else `$KCAUTH_PROFILE`, else `default`; checked for a sane name.
    func profile(_ command: ParsedCommand) throws -> String {
        let name = command.value("profile") ?? environment["KCAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? ProfileName.defaultName
        guard ProfileName.isValid(name) else {
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(name))' is not a valid profile name", hint: "use letters, digits, '.', '_' and '-'")
        }
        return name
    }
}
