import KCAuthContract
import KCAuthCore

/// git's credential helper (gitcredentials(7), git-credential(1)): the request on standard
/// input, the profile whose `hosts` lists the server, and the answer with its access token —
/// or nothing, and git asks its next helper.
public struct GitCredential: Sendable {
    /// git's actions; git may grow new ones, which a helper ignores (the caller does not ask).
    public enum Action: String, Sendable {
        case get, store, erase
    }

    let context: KCAuthContext
    /// The profile named on the helper's command line.
    let option: String?
    /// The forwarded session's answers (`ssh`), when one is announced: then nothing is read
    /// from this host's configuration or stores.
    let forwarded: ForwardedHelperToken.Source?

    public init(context: KCAuthContext, option: String?, forwarded: ForwardedHelperToken.Source? = nil) {
        self.context = context
        self.option = option
        self.forwarded = forwarded
    }

    /// Reads git's request from standard input and answers it; nil: no answer (a server that
    /// gets no token, `store`, `erase`).
    public func run(_ action: Action) throws -> GitCredentialAnswer? {
        let text = try context.adapters.standardInput.read(limit: GitCredentialRequest.maxInput, stopAtBlankLine: true)
        guard action != .store else { return nil }  // the session is kept by a sign-in, not by git
        let request = try GitCredentialRequest(parsing: text)
        guard request.isSafeTransport, let host = request.host else { return nil }
        return try answer(host: host, action: action, request: request)
    }

    /// The answer for a request whose server is `host` (already checked for a safe transport).
    public func answer(host: CredentialHost, action: Action, request: GitCredentialRequest) throws -> GitCredentialAnswer? {
        if let forwarded { return try answerForwarded(host: host, action: action, request: request, forwarded) }
        let profiles = try HelperProfiles(context)
        let picked = HelperProfiles.picked(context, option: option)
        guard let name = profiles.profile(for: host, picked: picked) else { return nil }
        let profile = try context.resolve(SettingsFlags(profile: name))
        if action == .erase {
            // git erases the credential the server rejected: if it is the current token, get a
            // new one now, so git's next `get` does not hand out the rejected one again.
            guard let rejected = request.password ?? request.fields["credential"],
                  let current = try? freshToken(profile, force: false), current.accessToken == rejected
            else { return nil }
            context.invalidateCachedToken(profile: profile.name)
            _ = try freshToken(profile, force: true)
            return nil
        }
        // The user name git sent (from the URL) is git's input, not the provider's answer: a bad
        // one is said to be that, before any token is fetched.
        let sent = try sentUsername(request)
        let token = try freshToken(profile, force: false)
        guard GitCredentialAnswer.isLineSafe(token.accessToken) else {
            throw KCAuthError(.invalidResponse, "the provider's access token cannot go into git's credential protocol")
        }
        return GitCredentialAnswer(username: sent ?? profiles.username(of: profile.name), token: token.accessToken,
                                   expiresAt: token.expiresAt, bearer: request.acceptsAuthType)
    }

    /// Over `ssh`: the laptop picks the profile and gives the token; `erase` has nothing to
    /// forget here (nothing is stored on this host).
    private func answerForwarded(host: CredentialHost, action: Action, request: GitCredentialRequest,
                                 _ forwarded: ForwardedHelperToken.Source) throws -> GitCredentialAnswer? {
        guard action == .get, let answer = try forwarded(HelperProfiles.picked(context, option: option), host) else { return nil }
        let username = request.username.flatMap { $0.isEmpty ? nil : $0 } ?? answer.username ?? IntegrationSettings.defaultUsername
        guard GitCredentialAnswer.isLineSafe(username), GitCredentialAnswer.isLineSafe(answer.token.accessToken) else {
            throw KCAuthError(.invalidResponse, "the forwarded answer cannot go into git's credential protocol")
        }
        return GitCredentialAnswer(username: username, token: answer.token.accessToken, expiresAt: answer.token.expiresAt,
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

    private func freshToken(_ profile: ResolvedProfile, force: Bool) throws -> IssuedToken {
        try context.getToken(profile).run(GetToken.Request(profile: profile.name, minValid: HelperRule.minValid, force: force))
    }
}

extension KCAuthContext {
    /// git's credential helper; `option`: the profile named on its command line.
    public func gitCredential(option: String?, forwarded: ForwardedHelperToken.Source? = nil) -> GitCredential {
        GitCredential(context: self, option: option, forwarded: forwarded)
    }
}
