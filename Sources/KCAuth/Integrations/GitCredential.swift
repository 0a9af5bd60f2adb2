import KCAuthContract
import KCAuthCore

/// git's credential helper (gitcredentials(7), git-credential(1)): the request on standard
/// input, the profile whose `hosts` lists the server, and the answer with its access token —
/// or nothing, and git asks its next helper.
public struct GitCredential: Sendable {
    /// A helper action; git's are those of its row (``CredentialHelper/git``), and git may grow
    /// new ones, which a helper ignores (the caller does not ask).
    public typealias Action = CredentialHelper.Action

    let helper: HelperContext

    init(_ helper: HelperContext) { self.helper = helper }

    /// Reads git's request from standard input and answers it; nil: no answer (a server that
    /// gets no token, `store`, `erase`).
    public func run(_ action: Action) throws -> GitCredentialAnswer? {
        let text = try helper.input(CredentialHelper.git.wire)
        // `store`: the session is kept by a sign-in, not by git; `list` is not git's.
        guard action == .get || action == .erase else { return nil }
        let request = try GitCredentialRequest(parsing: text)
        guard request.isSafeTransport, let host = request.host else { return nil }
        return try answer(host: host, action: action, request: request)
    }

    /// The answer for a request whose server is `host` (already checked for a safe transport).
    public func answer(host: CredentialHost, action: Action, request: GitCredentialRequest) throws -> GitCredentialAnswer? {
        if let forwarded = helper.forwarded { return try answerForwarded(host: host, action: action, request: request, forwarded) }
        let profiles = try helper.profiles()
        let picked = try helper.picked
        // A picked profile the file lacks (a typo in the helper line or KCAUTH_PROFILE) answers
        // no server: git would only ask for a password, so the person is told why (stdout stays
        // git's: empty).
        if let picked, !profiles.profiles.contains(where: { $0.name == picked }) {
            throw KCAuthError(.usage, "there is no profile '\(Sanitize.oneLine(picked, limit: 64))' in \(helper.context.settings.path)",
                              remedy: .noSuchProfile(picked))
        }
        guard let name = profiles.profile(for: host, picked: picked) else { return nil }
        let profile = try helper.context.resolve(SettingsFlags(profile: name))
        if action == .erase {
            // git erases the credential the server rejected: if it is the current token, get a
            // new one now, so git's next `get` does not hand out the rejected one again.
            guard let rejected = request.password ?? request.fields["credential"],
                  let current = try? helper.token(profile), current.accessToken.reveal() == rejected
            else { return nil }
            helper.context.invalidateCachedToken(profile: profile.name)
            _ = try helper.token(profile, force: true)
            return nil
        }
        // The user name git sent (from the URL) is git's input, not the provider's answer: a bad
        // one is said to be that, before any token is fetched.
        let sent = try sentUsername(request)
        let token = try helper.token(profile)
        guard GitCredentialAnswer.isLineSafe(token.accessToken.reveal()) else {
            throw KCAuthError(.invalidResponse, "the provider's access token cannot go into git's credential protocol")
        }
        return GitCredentialAnswer(username: sent ?? profiles.username(of: profile.name), token: token.accessToken.reveal(),
                                   expiresAt: token.expiresAt, bearer: request.acceptsAuthType)
    }

    /// Over `ssh`: the laptop picks the profile and gives the token; `erase` has nothing to
    /// forget here (nothing is stored on this host).
    private func answerForwarded(host: CredentialHost, action: Action, request: GitCredentialRequest,
                                 _ forwarded: ForwardedHelperToken.Source) throws -> GitCredentialAnswer? {
        guard action == .get, let answer = try forwarded(try helper.picked, host) else { return nil }
        let username = request.username.flatMap { $0.isEmpty ? nil : $0 } ?? answer.username ?? IntegrationSettings.defaultUsername
        guard GitCredentialAnswer.isLineSafe(username), GitCredentialAnswer.isLineSafe(answer.token.accessToken.reveal()) else {
            throw KCAuthError(.invalidResponse, "the forwarded answer cannot go into git's credential protocol")
        }
        return GitCredentialAnswer(username: username, token: answer.token.accessToken.reveal(), expiresAt: answer.token.expiresAt,
                                   bearer: request.acceptsAuthType)
    }

    private func sentUsername(_ request: GitCredentialRequest) throws -> String? {
        guard let sent = request.username.flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        guard GitCredentialAnswer.isLineSafe(sent) else {
            throw KCAuthError(.usage, "the username in git's credential request is not one line of printable characters",
                              hint: "check the user name in the repository's URL")
        }
        return sent
    }
}

extension KCAuthContext {
    /// git's credential helper; `option`: the profile named on its command line.
    /// `forwarded`: where the laptop's tokens come from; nil: the forward `ssh` announced, if any.
    public func gitCredential(option: String?, forwarded: ForwardedHelperToken.Source? = nil) -> GitCredential {
        GitCredential(HelperContext(context: self, option: option, forwarded: forwarded ?? forwardedToken().helperSource))
    }
}
