import KCAuthContract
import KCAuthCore

/// The laptop's answers on a forward's socket, for the profiles the user forwarded and nothing
/// else. An answer is an access token (an ID token when asked), built by ``ForwardMessage`` from
/// an ``IssuedToken``, which holds no refresh token or client credential. Each profile is
/// resolved again for every request, so a sign-in on the laptop while the connection stays up is
/// used at once. How fresh a token is made, and how often the remote host can make the laptop
/// refresh: ``ForwardFreshness``. Every answer is logged (names only), with the refreshes it
/// caused or was refused.
public struct ForwardAnswers: Sendable {
    let context: KCAuthContext
    let host: any ForwardHost
    public let profiles: [String]
    public let scope: String?
    public let destination: String
    let freshness = ForwardFreshness()

    public init(context: KCAuthContext, host: any ForwardHost, profiles: [String], scope: String?, destination: String) {
        self.context = context
        self.host = host
        self.profiles = profiles
        self.scope = scope
        self.destination = destination
    }

    /// What the forward is, for the remote `status` and `whoami`.
    public var forwardDescription: ForwardDescription { ForwardDescription(destination: destination, profiles: profiles, scope: scope) }

    /// The answer line, logged.
    public func answer(_ request: ForwardMessage.Request) -> String {
        let now = context.clock.instant
        if request.describe {
            log(profiles[0], "answer=description", now)
            return forwardDescription.line
        }
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
            let outcome = try freshness.token(context: context, profile: profile, request: request, scope: scope)
            if request.idToken, outcome.token.idToken == nil {
                throw KCAuthError(.loginRequired, "the session of profile '\(name)' has no ID token")
            }
            log(name, "answer=" + (request.idToken ? "access_token,id_token" : "access_token") + Self.refreshWords(outcome), now)
            return ForwardMessage.answer(outcome.token, profile: name, idToken: request.idToken, username: username)
        } catch {
            let failure = KCAuthError.wrapping(error)
            log(name, "error=\(failure.code.rawValue)", now)
            return ForwardMessage.failure(failure, profile: name)
        }
    }

    /// The log's words for how fresh the answer was made: ` min_valid=capped` when the request
    /// asked for more than a fresh token gives, ` refresh=done` or ` refresh=limited`.
    static func refreshWords(_ outcome: ForwardFreshness.Outcome) -> String {
        (outcome.capped ? " min_valid=capped" : "") + (outcome.refreshed ? " refresh=done" : outcome.limited ? " refresh=limited" : "")
    }

    /// The forwarded profiles of the laptop's configuration (read for every helper request),
    /// with their `hosts` and `username`.
    func helperProfiles() throws -> [(name: String, settings: ProfileSettings)] {
        try HelperProfiles(try context.settings.load(), path: context.settings.path).profiles.filter { profiles.contains($0.name) }
    }

    /// The forward's log line, and the same in the trace (`--debug`) with the time the answer took.
    private func log(_ profile: String, _ outcome: String, _ now: Instant) {
        host.log(ForwardLog.line(destination: destination, profile: profile, scope: scope, outcome: outcome, now: now))
        context.trace.emit(TraceEvent("forward.request", ("destination", .text(destination)), ("profile", .text(profile)),
                                      ("outcome", .text(outcome)), ("ms", .milliseconds(context.clock.now() - now.epochSeconds))))
    }
}
