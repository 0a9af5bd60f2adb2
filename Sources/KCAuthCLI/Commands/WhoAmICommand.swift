import KCAuth
import KCAuthCore

/// `kcauth whoami`: who is signed in to a profile, from the stored (validated) ID token.
enum WhoAmICommand: Command {
    static let spec = CommandSpec(
        "whoami", summary: "Show who is signed in",
        description: """
        Shows who is signed in to the profile, from the ID token that was validated when it was \
        stored: subject, username, name, email, issuer, client, realm and client roles \
        (Keycloak's realm_access and resource_access; from the access token when the ID token \
        has none), granted scopes, when the access and refresh tokens expire, and the storage. \
        Needs no network, except for a client that authenticates with a platform's assertion \
        (login's client_assertion_from): one is fetched, as a token request would, to show its source \
        and what it says (iss, sub, aud, time left), never the assertion. --userinfo also asks the provider's userinfo endpoint (refreshing the \
        access token first if needed), which proves that the session is still alive there. \
        Exits with status 4 when nobody is signed in or the provider no longer accepts the \
        session. On the remote side of `kcauth ssh` it shows the forward and who the token the \
        laptop lends says you are.
        """,
        options: [CommandTable.profile, userinfo, SessionOutput.option],
        examples: ["kcauth whoami", "kcauth whoami --userinfo -o json | jq -r .email"])

    static let userinfo = OptionSpec("userinfo", help: "Also ask the provider's userinfo endpoint")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        if try ForwardedSession.whoami(command, services, userinfo: command.flag(userinfo)) { return }
        let profile = try services.resolve(command)
        let identity = try services.context.whoAmI(profile).run(profile: profile.name, userinfo: command.flag(userinfo))
        // A platform's assertion is fetched now, as a token request would, to show what it says.
        let assertion = services.context.assertionPreview(profile)
        let now = services.context.clock.instant
        switch SessionOutput(command) {
        case .text: services.console.out(WhoAmIOutput.text(identity, now: now, clientAuth: profile.clientAuth.value,
                                                                        selectedBy: ProfileOrigin.words(profile.profile), assertion: assertion))
        case .json: services.console.out(WhoAmIOutput.json(identity, now: now, clientAuth: profile.clientAuth.value, assertion: assertion))
        }
    }
}
