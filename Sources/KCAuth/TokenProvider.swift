import Dispatch
import FoundationEssentials
@_exported import KCAuthCore

/// Fresh tokens for a Swift program, from the session `kcauth login` stored: the library's
/// async facade over the `GetToken` use case (`KCAuthContext.getToken(_:)`), run off the
/// cooperative thread pool.
///
/// It uses the same store, the same runtime cache and the same cross-process refresh lock as
/// the `kcauth` command, so any number of tools and scripts can share one login without ever
/// refreshing the same refresh token twice (which ends the session on Keycloak).
///
/// ```swift
/// import KCAuth
///
/// let provider = try TokenProvider(profile: "default")
/// let token = try await provider.freshAccessToken(minValid: .seconds(30))
/// request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
/// ```
///
/// Errors are `KCAuthError`; `.loginRequired` means a person has to run `kcauth login` again.
public struct TokenProvider: Sendable {
    /// The profile this provider serves.
    public var profile: String { settings.name }
    /// Its settings, resolved like the command resolves them.
    public let settings: ResolvedProfile
    let context: KCAuthContext

    /// - Parameters:
    ///   - profile: a profile name; nil chooses like the command does (`$KCAUTH_PROFILE`, the
    ///     config file's `default_profile`, then `default`).
    ///   - environment: where to find the keyring, the configuration and the runtime directory.
    public init(profile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        try self.init(profile: profile, context: KCAuthContext(environment: environment))
    }

    /// A provider over a given composition root (tests pass fakes; see `KCAuthTestSupport`).
    public init(profile: String? = nil, context: KCAuthContext) throws {
        self.context = context
        settings = try context.resolve(SettingsFlags(profile: profile))
    }

    /// An access token valid for at least `minValid`, refreshed first when needed.
    public func freshAccessToken(minValid: Duration = .seconds(30)) async throws -> String {
        try await freshToken(minValid: minValid).accessToken
    }

    /// The token with its expiry, scope and issuer; `idToken: true` makes the ID token's expiry
    /// decide and guarantees `idToken` is set.
    public func freshToken(minValid: Duration = .seconds(30), idToken: Bool = false) async throws -> IssuedToken {
        let request = GetToken.Request(profile: profile, minValid: Self.seconds(minValid), idToken: idToken)
        let useCase = context.getToken(settings)
        // The keyring, the lock and libcurl block: keep them off the cooperative thread pool.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try useCase.run(request) })
            }
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
