import KCAuth
import KCAuthContract
import KCAuthCore
import KCAuthSystem

/// `kcauth git-credential get|store|erase` (also run as `git-credential-kcauth`): git's
/// credential helper protocol (gitcredentials(7), git-credential(1)).
enum GitCredentialCommand: Command {
    static let spec = CommandSpec(
        "git-credential", summary: "Credential helper for git (git-credential-kcauth)",
        description: """
        Answers git's credential helper protocol with the profile's access token, so `git clone` \
        and `git push` over HTTPS sign in with the kcauth session. git runs it as \
        `git-credential-kcauth` (installed next to kcauth) for `credential.helper = kcauth`, or as \
        `!kcauth git-credential --profile NAME`; configure it for the server's URL \
        (`credential.https://git.example.com.helper`), not for every URL. The token goes only to \
        the servers a profile's `hosts` setting lists: the first profile that lists the server, \
        or, with --profile (or KCAUTH_PROFILE), that profile if it lists the server. A server \
        that gets no token gets no answer, and git asks its next helper. `get` prints the user \
        name (the profile's `username` setting, default oauth2) and the token as the password, \
        or an `Authorization: Bearer` credential when git (2.46 and later) says it takes one. The \
        token goes only over https, or over http to 127.0.0.1 or ::1 (a numeric address: not a \
        name such as localhost, which may resolve elsewhere). `erase` (git reports the token was \
        rejected) refreshes the token; `store` does nothing: the session is kept by `kcauth login`.
        """,
        usage: "{get|store|erase} [flags]",
        options: [HelperProfiles.helperProfileOption],
        positionals: ["ACTION"],
        examples: [
            // For one URL: a helper for every URL would be asked by every server git talks to.
            "git config credential.https://git.example.com.helper kcauth",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        guard let action = command.positionals.first else {
            throw KCAuthError(.usage, "git-credential needs an action: get, store or erase")
        }
        // git may grow new actions: a helper ignores the ones it does not know.
        guard action == "get" || action == "erase" else {
            if action == "store" { _ = try StandardInput.read(limit: GitCredentialRequest.maxInput, stopAtBlankLine: true) }
            return
        }
        let request = try GitCredentialRequest(parsing: StandardInput.read(limit: GitCredentialRequest.maxInput, stopAtBlankLine: true))
        guard request.isSafeTransport, let host = request.host else { return }
        if ForwardedSession.announced(services) { return try forwarded(action, request, host, command, services) }
        let profiles = try HelperProfiles.load(services)
        guard let profile = try profiles.profile(for: host, command, services) else { return }

        if action == "erase" {
            // git erases the credential the server rejected: if it is the current token, get a
            // new one now, so git's next `get` does not hand out the rejected one again.
            guard let rejected = request.password ?? request.fields["credential"],
                  let current = try? freshToken(profile: profile, force: false, services: services), current.accessToken == rejected
            else { return }
            services.context.invalidateCachedToken(profile: profile.name)
            _ = try freshToken(profile: profile, force: true, services: services)
            return
        }
        // The user name git sent (from the URL) is git's input, not the provider's answer: a bad
        // one is said to be that, before any token is fetched.
        let sent = request.username.flatMap { $0.isEmpty ? nil : $0 }
        if let sent, !GitCredentialAnswer.isLineSafe(sent) {
            throw KCAuthError(.usage, "the username in git's credential request is not one line of printable characters",
                              hint: "check the user name in the repository's URL")
        }
        let token = try freshToken(profile: profile, force: false, services: services)
        let username = sent ?? profiles.username(of: profile.name)
        guard GitCredentialAnswer.isLineSafe(token.accessToken) else {
            throw KCAuthError(.invalidResponse, "the provider's access token cannot go into git's credential protocol")
        }
        services.console.out(GitCredentialAnswer(username: username, token: token.accessToken, expiresAt: token.expiresAt,
                                                 bearer: request.acceptsAuthType).text)
    }

    /// Over `kcauth ssh`: the laptop picks the profile and gives the token; `erase` has nothing
    /// to forget here (nothing is stored on this host).
    private static func forwarded(_ action: String, _ request: GitCredentialRequest, _ host: CredentialHost, _ command: ParsedCommand,
                                  _ services: Services) throws {
        guard action == "get",
              let answer = try ForwardedSession.helperToken(services, picked: HelperProfiles.picked(command, services), host: host) else { return }
        let sent = request.username.flatMap { $0.isEmpty ? nil : $0 }
        let username = sent ?? answer.username ?? IntegrationSettings.defaultUsername
        guard GitCredentialAnswer.isLineSafe(username), GitCredentialAnswer.isLineSafe(answer.token.accessToken) else {
            throw KCAuthError(.invalidResponse, "the forwarded answer cannot go into git's credential protocol")
        }
        services.console.out(GitCredentialAnswer(username: username, token: answer.token.accessToken, expiresAt: answer.token.expiresAt,
                                                 bearer: request.acceptsAuthType).text)
    }

    private static func freshToken(profile: ResolvedProfile, force: Bool, services: Services) throws -> IssuedToken {
        try services.context.getToken(profile).run(GetToken.Request(profile: profile.name, minValid: HelperRule.minValid, force: force))
    }
}
