import KCAuth
import KCAuthContract
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
        ~/.docker/config.json. --profile (or KCAUTH_PROFILE) picks the profile, and it still \
        answers only for the registries that profile lists. `get` reads the registry on stdin and \
        prints its user name (the profile's `username` setting, default oauth2) and the token as \
        the secret; a registry no profile lists, or one named with http:// that is not 127.0.0.1 \
        or ::1, is answered "credentials not found", as docker expects. `list` prints the \
        registries of all profiles (of the picked one). kcauth is a read-only source: `store` \
        (after `docker login`) keeps nothing, and `erase` (`docker logout`) only forgets the \
        runtime copy of the token; the session itself ends with `kcauth logout`.
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
        if ForwardedSession.announced(services), action == "get" || action == "list" || action == "erase" {
            return try forwarded(action, command, services)
        }
        let profiles = try HelperProfiles.load(services)
        switch action {
        case "list":
            var entries: [(server: String, username: String)] = []
            for (name, settings) in profiles.candidates(command, services) {
                for host in settings.hosts ?? [] where !entries.contains(where: { $0.server == host.description }) {
                    entries.append((host.description, profiles.username(of: name)))
                }
            }
            services.console.out(DockerCredential.listAnswer(entries))
        case "get", "erase":
            let serverURL = DockerCredential.serverURL(fromInput: try StandardInput.read(limit: maxInput))
            guard let host = DockerCredential.host(ofServerURL: serverURL) else {
                return try notFound(action, services, "'\(Sanitize.oneLine(serverURL, limit: 200))' is not a registry name kcauth knows")
            }
            // As for git: a token over plain http only to a numeric loopback address.
            guard CredentialTransport.allowsToken(scheme: DockerCredential.scheme(ofServerURL: serverURL), host: host.host) else {
                return try notFound(action, services, "kcauth sends a token over http only to 127.0.0.1 or ::1, not to '\(host)'")
            }
            guard let profile = try profiles.profile(for: host, command, services) else {
                let picked = HelperProfiles.picked(command, services)
                return try notFound(action, services, picked.map { "profile '\(Sanitize.oneLine($0, limit: 64))' does not list '\(host)' in its hosts setting" }
                                    ?? "no kcauth profile lists '\(host)' in its hosts setting")
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

    /// docker's "no credentials here": the exact text on stdout, status 1, and for a person
    /// the reason on stderr. `erase` of something kcauth has nothing for is not an error.
    private static func notFound(_ action: String, _ services: Services, _ reason: String) throws {
        guard action == "get" else { return }
        services.console.out(DockerCredential.notFound + "\n")
        throw KCAuthError(.configuration, reason)
    }

    /// Over `kcauth ssh`: `get` asks the laptop (which picks the profile by its `hosts`), `list`
    /// knows no registries here (the laptop's configuration stays there), `erase` has nothing to
    /// forget.
    private static func forwarded(_ action: String, _ command: ParsedCommand, _ services: Services) throws {
        switch action {
        case "list":
            services.console.out(DockerCredential.listAnswer([]))
        case "get":
            let serverURL = DockerCredential.serverURL(fromInput: try StandardInput.read(limit: maxInput))
            guard let host = DockerCredential.host(ofServerURL: serverURL),
                  CredentialTransport.allowsToken(scheme: DockerCredential.scheme(ofServerURL: serverURL), host: host.host) else {
                return try notFound(action, services, "'\(Sanitize.oneLine(serverURL, limit: 200))' gets no token")
            }
            guard let answer = try ForwardedSession.helperToken(services, picked: HelperProfiles.picked(command, services), host: host) else {
                return try notFound(action, services, "no profile forwarded to this host lists '\(host)' in its hosts setting")
            }
            services.console.out(DockerCredential.getAnswer(serverURL: serverURL, username: answer.username ?? IntegrationSettings.defaultUsername,
                                                            secret: answer.token.accessToken))
        default:
            _ = try StandardInput.read(limit: maxInput)
        }
    }

    private static func freshToken(profile: ResolvedProfile, services: Services) throws -> IssuedToken {
        try services.context.getToken(profile).run(GetToken.Request(profile: profile.name, minValid: HelperRule.minValid))
    }
}
