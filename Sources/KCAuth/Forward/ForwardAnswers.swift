import KCAuthContract
import KCAuthCore

/// The laptop's answers on a forward's socket, for the profiles the user forwarded and nothing
/// else. An answer is an access token (an ID token when asked), built by ``ForwardMessage`` from
/// an ``IssuedToken``, which holds no refresh token or client credential. Each profile is
/// resolved again for every request, so a sign-in on the laptop while the connection stays up is
/// used at once. Every answer is logged (names only).
public struct ForwardAnswers: Sendable {
    let context: KCAuthContext
    let host: any ForwardHost
    public let profiles: [String]
    public let scope: String?
    public let destination: String

    public init(context: KCAuthContext, host: any ForwardHost, profiles: [String], scope: String?, destination: String) {
        self.context = context
        self.host = host
        self.profiles = profiles
        self.scope = scope
        self.destination = destination
    }

    /// The answer line, logged.
    public func answer(_ request: ForwardMessage.Request) -> String {
        let now = context.clock.instant
        var username: String?
        var routed: String?
        if let text = request.host {
            // A credential helper: the forwarded profile whose `hosts` lists the server, by the
            // laptop's configuration and the same rule as the local helpers.
            guard let host = CredentialHost(text), let listed = try? helperProfiles(),
                  let name = HelperRule.profile(for: host.rule, picked: request.profile,
                                                profiles: listed.map { ($0.name, ($0.settings.hosts ?? []).map(\.rule)) }) else {
                log(request.profile ?? "-", "refused=host-not-listed host=\(ForwardLog.field(text))", now)
                return ForwardMessage.notServed
            }
            username = listed.first { $0.name == name }?.settings.username ?? IntegrationSettings.defaultUsername
            routed = name
        }
        let name = routed ?? request.profile ?? profiles[0]
        guard profiles.contains(name) else {
            log(name, "refused=not-forwarded", now)
            return ForwardMessage.failure(KCAuthError(.usage, "profile '\(Sanitize.oneLine(name, limit: 80))' is not forwarded to this host "
                                                      + "(forwarded: \(profiles.joined(separator: ", ")))"), profile: name)
        }
        do {
            let profile = try context.resolve(SettingsFlags(profile: name))
            let token = try context.tokenProvider(profile).run(TokenProvider.Request(minValid: request.minValid,
                                                                                     scope: scope, idToken: request.idToken))
            if request.idToken, token.idToken == nil {
                throw KCAuthError(.loginRequired, "the session of profile '\(name)' has no ID token")
            }
            log(name, "answer=" + (request.idToken ? "access_token,id_token" : "access_token"), now)
            return ForwardMessage.answer(token, profile: name, idToken: request.idToken, username: username)
        } catch {
            let failure = KCAuthError.wrapping(error)
            log(name, "error=\(failure.code.rawValue)", now)
            return ForwardMessage.failure(failure, profile: name)
        }
    }

    /// The forwarded profiles of the laptop's configuration (read for every helper request),
    /// with their `hosts` and `username`.
    func helperProfiles() throws -> [(name: String, settings: ProfileSettings)] {
        try HelperProfiles(try context.settings.load(), path: context.settings.path).profiles.filter { profiles.contains($0.name) }
    }

    private func log(_ profile: String, _ outcome: String, _ now: Instant) {
        host.log(ForwardLog.line(destination: destination, profile: profile, scope: scope, outcome: outcome, now: now))
    }
}
