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
    // `store(for:)`, the one place a profile's store is chosen: Services+Storage.swift.
    var settings: any SettingsStore { FileSettingsStore(path: paths.configFile) }
    /// Prefer `http(for: profile)` (Services+Network.swift): it trusts the profile's `ca_file`.
    func http(caFile: String? = nil) -> OAuthHTTP { OAuthHTTP(CurlTransport(caFile: caFile)) }
    var opener: any URLOpener { BrowserOpener(environment: environment) }
    var lock: any ProfileLock { FileProfileLock(directory: paths.lockDirectory) }
    var tokenCache: (any TokenCache)? { RuntimeTokenCache.forEnvironment(environment) }

    /// The fresh-token use case of a profile; libcurl is set up only if a refresh is needed.
    func getToken(profile: String) throws -> GetToken {
        let clock = self.clock
        return GetToken(store: try store(for: profile), clock: clock, lock: lock, cache: tokenCache,
                        refresher: { [self] in TokenRefresher(http: http(caFile: try? caFile(for: profile)), clock: clock) })
    }

    /// Forget the runtime copy of a profile's access token (after login, logout, a profile change).
    func invalidateCachedToken(profile: String) {
        tokenCache?.remove(profile: profile)
    }
    var receiver: any RedirectReceiver { LoopbackReceiver() }
    var sleeper: any Sleeper { SystemSleeper() }

    /// The post-logout redirect of `logout --browser`: `http://127.0.0.1:PORT/logged-out`.
    var logoutReceiver: any RedirectReceiver { LoopbackReceiver(path: "/logged-out") }

    /// `--profile`, else `$KCAUTH_PROFILE`, else the config file's `default_profile` (`kcauth
    /// use`), else `default`; checked for a sane name. The file is read only in the last case.
    func profile(_ command: ParsedCommand) throws -> String {
        let name = try command.value("profile") ?? environment["KCAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? settings.load().defaultProfile(path: settings.path) ?? ProfileName.defaultName
        guard ProfileName.isValid(name) else {
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(name))' is not a valid profile name", hint: "use letters, digits, '.', '_' and '-'")
        }
        return name
    }
}
