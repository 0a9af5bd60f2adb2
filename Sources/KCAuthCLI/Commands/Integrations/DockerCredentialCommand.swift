import KCAuth
import KCAuthContract
import KCAuthCore

/// `kcauth docker-credential get|list|store|erase` (also run as `docker-credential-kcauth`):
/// the docker credential-helper protocol, as a read-only source of registry tokens.
enum DockerCredentialCommand: Command {
    static let helper = CredentialHelper.docker

    static let spec = CommandSpec(
        helper.command, summary: "Credential helper for \(helper.tool) (\(helper.program))",
        description: """
        Answers the docker credential-helper protocol with the access token of the profile whose \
        `hosts` setting lists the registry: docker runs it as `\(helper.program)` \
        (installed next to kcauth) for `"credHelpers": {"registry.example.com": "kcauth"}` in \
        ~/.docker/config.json. --profile (or KCAUTH_PROFILE) picks the profile, and it still \
        answers only for the registries that profile lists. `get` reads the registry on stdin and \
        prints its user name (the profile's `username` setting, default oauth2) and the token as \
        the secret; a registry no profile lists, or one named with http:// that is not 127.0.0.1 \
        or ::1, is answered "credentials not found", as docker expects. `list` prints the \
        registries of all profiles (of the picked one). kcauth is a read-only source: `store` \
        (after `docker login`) keeps nothing, and `erase` (`docker logout`) only forgets the \
        runtime copy of the token; the session itself ends with `kcauth logout`.
        """,
        usage: HelperOptions.usage(helper),
        options: [HelperOptions.profile],
        positionals: ["ACTION"],
        arguments: .offered(helper.actionWords),
        examples: [
            "echo registry.example.com | kcauth docker-credential get",
        ])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        guard let action = try HelperOptions.action(command, helper) else { return }
        let credential = services.context.dockerCredential(option: command.value(HelperOptions.profile))
        switch try credential.run(action) {
        case .found(let serverURL, let username, let secret):
            services.console.out(DockerCredentialWire.getAnswer(serverURL: serverURL, username: username, secret: secret))
        case .list(let entries):
            services.console.out(DockerCredentialWire.listAnswer(entries))
        case .notFound(let missing):
            // docker's "no credentials here": the exact text on stdout, status 1, and for a
            // person the reason on stderr.
            services.console.out(DockerCredentialJSON.notFound + "\n")
            throw KCAuthError(.configuration, reason(missing))
        case .nothing:
            break
        }
    }

    static func reason(_ missing: DockerCredential.Missing) -> String {
        switch missing {
        case .notARegistry(let text): "'\(Sanitize.oneLine(text, limit: 200))' is not a registry name kcauth knows"
        case .plainHTTP(let host): "kcauth sends a token over http only to 127.0.0.1 or ::1, not to '\(host)'"
        case .notListedByPicked(let profile, let host): "profile '\(Sanitize.oneLine(profile, limit: 64))' does not list '\(host)' in its hosts setting"
        case .notListed(let host): "no kcauth profile lists '\(host)' in its hosts setting"
        case .notForForwarding(let text): "'\(Sanitize.oneLine(text, limit: 200))' gets no token"
        case .notForwarded(let host): "no profile forwarded to this host lists '\(host)' in its hosts setting"
        }
    }
}
