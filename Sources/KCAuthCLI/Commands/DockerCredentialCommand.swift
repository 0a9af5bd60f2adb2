import KCAuthCore
import KCAuthSystem

/// `kcauth docker-credential get|list|store|erase` (also run as `docker-credential-kcauth`):
/// the docker credential-helper protocol, as a read-only source of registry tokens.
enum DockerCredentialCommand: Command {
    static let spec = CommandSpec(
        "docker-credential", summary: "Credential helper for docker (docker-credential-kcauth)",
        description: """
        Answers the docker credential-helper protocol with the access token of the profile whose \
        `hosts` setting lists the registry: docker runs it as `docker-credential-kcauth` \
        (installed next to kcauth) for `"credHelpers": {"registry.example.com": "kcauth"}` in \
        ~/.docker/config.json. `get` reads the registry on stdin and prints its user name (the \
        profile's `username` setting, default oauth2) and the token as the secret; a registry no \
        profile lists is answered "credentials not found", as docker expects. `list` prints the \
        registries of all profiles. kcauth is a read-only source: `store` (after `docker login`) \
        keeps nothing, and `erase` (`docker logout`) only forgets the runtime copy of the token; \
        the session itself ends with `kcauth logout`.
        """,
        usage: "{get|list|store|erase} [flags]",
        options: [HelperProfiles.helperProfileOption],
        positionals: ["ACTION"],
        examples: [
            "echo registry.example.com | kcauth docker-credential get",
        ])

    static let maxInput = 64 * 1024

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        guard let action = command.positionals.first else {
            throw KCAuthError(.usage, "docker-credential needs an action: get, list, store or erase")
        }
        let profiles = try HelperProfiles.load(services)
        switch action {
        case "list":
            var entries: [(server: String, username: String)] = []
            for (name, settings) in profiles.profiles {
                for host in settings.hosts ?? [] where !entries.contains(where: { $0.server == host.description }) {
                    entries.append((host.description, profiles.username(of: name)))
                }
            }
            services.console.out(DockerCredential.listAnswer(entries))
        case "get", "erase":
            let serverURL = DockerCredential.serverURL(fromInput: try StandardInput.read(limit: maxInput))
            guard let host = DockerCredential.host(ofServerURL: serverURL),
                  let profile = try profiles.profile(for: host, explicit: command, services) else {
                guard action == "get" else { return }
                services.console.out(DockerCredential.notFound + "\n")
                throw KCAuthError(.configuration, "no kcauth profile lists '\(Sanitize.oneLine(serverURL, limit: 200))' in its hosts setting")
            }
            if action == "erase" {
                services.context.invalidateCachedToken(profile: profile.name)
                return
            }
            let token = try freshToken(profile: profile, services: services)
            services.console.out(DockerCredential.getAnswer(serverURL: serverURL, username: profiles.username(of: profile.name),
                                                            secret: token.accessToken))
        case "store":
            // docker hands over what `docker login` was given: kcauth keeps sessions only from
            // `kcauth login`, so it is read and dropped.
            _ = try StandardInput.read(limit: maxInput)
        default:
            throw KCAuthError(.usage, "unknown docker credential action '\(Sanitize.oneLine(action, limit: 40))'",
                              hint: "use get, list, store or erase")
        }
    }

    private static func freshToken(profile: ResolvedProfile, services: Services) throws -> IssuedToken {
        try services.context.getToken(profile).run(GetToken.Request(profile: profile.name, minValid: 60))
    }
}
