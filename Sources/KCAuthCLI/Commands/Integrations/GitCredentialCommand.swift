import KCAuth
import KCAuthContract
import KCAuthCore

/// `kcauth git-credential get|store|erase` (also run as `git-credential-kcauth`): git's
/// credential helper protocol (gitcredentials(7), git-credential(1)).
enum GitCredentialCommand: Command {
    static let helper = CredentialHelper.git

    static let spec = CommandSpec(
        helper.command, summary: "Credential helper for \(helper.tool) (\(helper.program))",
        description: """
        Answers git's credential helper protocol with the profile's access token, so `git clone` \
        and `git push` over HTTPS sign in with the kcauth session. git runs it as \
        `\(helper.program)` (installed next to kcauth) for `credential.helper = kcauth`, or as \
        `!kcauth \(helper.command) --profile NAME`; configure it for the server's URL \
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
        usage: HelperOptions.usage(helper),
        options: [HelperOptions.profile],
        positionals: ["ACTION"],
        arguments: .offered(helper.actionWords),
        examples: [
            // For one URL: a helper for every URL would be asked by every server git talks to.
            "git config credential.https://git.example.com.helper kcauth",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        // git may grow new actions: a helper ignores the ones it does not know.
        guard let action = try HelperOptions.action(command, helper) else { return }
        let credential = services.context.gitCredential(option: command.value(HelperOptions.profile))
        guard let answer = try credential.run(action) else { return }
        services.console.out(answer.text)
    }
}
