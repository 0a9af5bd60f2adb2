import Dispatch
import FoundationEssentials
@_exported import KCAuthCore

/// Fresh tokens for a Swift program, from the session `kcauth login` stored: the token source
/// the command uses, awaited off the cooperative thread pool.
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
extension TokenProvider {
    /// - Parameters:
    ///   - profile: a profile name; nil chooses like the command does (`$KCAUTH_PROFILE`, the
    ///     config file's `default_profile`, then `default`).
    ///   - environment: where to find the keyring, the configuration and the runtime directory.
    public init(profile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        try self.init(profile: profile, context: KCAuthContext(environment: environment))
    }

    /// A provider over a given composition root (tests pass fakes; see `KCAuthTestSupport`),
    /// for the profile resolved like the command resolves it.
    public init(profile: String? = nil, context: KCAuthContext) throws {
        self = context.tokenProvider(try context.resolve(SettingsFlags(profile: profile)))
    }

    /// An access token valid for at least `minValid`, refreshed first when needed: the raw
    /// value, handed to the program that asked for it.
    public func freshAccessToken(minValid: Duration = .seconds(30)) async throws -> String {
        try await freshToken(minValid: minValid).accessToken.reveal()
    }

    /// The token with its expiry, scope and issuer; `idToken: true` makes the ID token's expiry
    /// decide and guarantees `idToken` is set.
    public func freshToken(minValid: Duration = .seconds(30), idToken: Bool = false) async throws -> IssuedToken {
        let request = Request(minValid: Self.seconds(minValid), idToken: idToken)
        // The keyring, the lock and libcurl block: keep them off the cooperative thread pool.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.run(request) })
            }
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
