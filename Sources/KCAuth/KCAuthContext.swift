import FoundationEssentials
import KCAuthCore
import KCAuthCrypto
import KCAuthSystem

/// The composition root shared by the `kcauth` command and the `KCAuth` library: the one place
/// that builds the real adapters for an environment. Each adapter is made only when asked for,
/// so the `token` hot path never initialises libcurl or binds a socket.
public struct KCAuthContext: Sendable {
    public let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    public var paths: Paths { Paths(environment: environment) }
    public var clock: any TimeSource { SystemClock() }
    public var random: any RandomSource { SecureRandom() }
    public var settings: any SettingsStore { FileSettingsStore(path: paths.configFile) }
    /// Prefer `http(for: profile)`: it trusts the profile's `ca_file`.
    public func http(caFile: String? = nil) -> OAuthHTTP { OAuthHTTP(CurlTransport(caFile: caFile)) }
    public var opener: any URLOpener { BrowserOpener(environment: environment) }
    public var lock: any ProfileLock { FileProfileLock(directory: paths.lockDirectory) }
    public var tokenCache: (any TokenCache)? { RuntimeTokenCache.forEnvironment(environment) }
    public var receiver: any RedirectReceiver { LoopbackReceiver() }
    public var sleeper: any Sleeper { SystemSleeper() }
    /// The post-logout redirect of `logout --browser`: `http://127.0.0.1:PORT/logged-out`.
    public var logoutReceiver: any RedirectReceiver { LoopbackReceiver(path: "/logged-out") }

    /// The fresh-token use case of a profile; libcurl is set up only if a refresh is needed.
    public func getToken(profile: String) throws -> GetToken {
        let clock = self.clock
        let kind = try storageKind(for: profile, option: nil)
        // A memory session lives only inside one `login`: no runtime copy may stand in for it.
        return GetToken(store: makeStore(kind, profile: profile), clock: clock, lock: lock,
                        cache: kind == .memory ? nil : tokenCache,
                        refresher: { [self] in TokenRefresher(http: http(caFile: try? caFile(for: profile)), clock: clock) })
    }

    /// Forget the runtime copy of a profile's access token (after login, logout, a profile change).
    public func invalidateCachedToken(profile: String) {
        tokenCache?.remove(profile: profile)
    }

    /// `explicit` (a `--profile` flag), else `$KCAUTH_PROFILE`, else the config file's
    /// `default_profile` (`kcauth use`), else `default`; checked for a sane name. The file is
    /// read only in the last case.
    public func profile(explicit: String?) throws -> String {
        let name = try explicit ?? environment["KCAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? settings.load().defaultProfile(path: settings.path) ?? ProfileName.defaultName
        guard ProfileName.isValid(name) else {
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(name))' is not a valid profile name", hint: "use letters, digits, '.', '_' and '-'")
        }
        return name
    }
}
