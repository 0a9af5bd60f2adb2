import KCAuthContract
import KCAuthCore

/// docker's credential helper (github.com/docker/docker-credential-helpers), as a read-only
/// source of registry tokens: `get` answers with the token of the profile whose `hosts` lists
/// the registry, `list` names the registries of the profiles, `store` keeps nothing and `erase`
/// forgets only the runtime copy of the token.
public struct DockerCredential: Sendable {
    /// A helper action; docker's are those of its row (``CredentialHelper/docker``).
    public typealias Action = CredentialHelper.Action

    /// What the helper answers.
    public enum Answer: Sendable {
        /// `get`: the registry's credentials.
        case found(serverURL: String, username: String, secret: String)
        /// `get`: docker's "credentials not found", and why.
        case notFound(Missing)
        /// `list`: registry → user name.
        case list([(server: String, username: String)])
        /// `store`, `erase`: nothing to say.
        case nothing
    }

    /// Why a registry gets no token.
    public enum Missing: Sendable, Equatable {
        /// What docker sent is not a registry name (`text` as sent, trimmed).
        case notARegistry(String)
        /// Plain http to a host that is not a numeric loopback address.
        case plainHTTP(host: CredentialHost)
        /// The picked profile does not list the registry.
        case notListedByPicked(profile: String, host: CredentialHost)
        /// No profile lists the registry.
        case notListed(host: CredentialHost)
        /// Over a forwarded session: the registry gets no token (`text` as sent, trimmed).
        case notForForwarding(String)
        /// Over a forwarded session: no forwarded profile lists the registry.
        case notForwarded(host: CredentialHost)
    }

    let helper: HelperContext

    init(_ helper: HelperContext) { self.helper = helper }

    public func run(_ action: Action) throws -> Answer {
        if let forwarded = helper.forwarded, action != .store { return try runForwarded(action, forwarded) }
        if action == .store {
            // docker hands over what `docker login` was given: kcauth keeps sessions only from
            // its own sign-in, so it is read and dropped.
            _ = try readInput()
            return .nothing
        }
        let profiles = try helper.profiles()
        let picked = try helper.picked
        if action == .list {
            var entries: [(server: String, username: String)] = []
            for (name, settings) in profiles.candidates(picked: picked) {
                for host in settings.hosts ?? [] where !entries.contains(where: { $0.server == host.description }) {
                    entries.append((host.description, profiles.username(of: name)))
                }
            }
            return .list(entries)
        }
        let serverURL = DockerCredentialWire.serverURL(fromInput: try readInput())
        guard let host = DockerCredentialWire.host(ofServerURL: serverURL) else { return missing(action, .notARegistry(serverURL)) }
        // As for git: a token over plain http only to a numeric loopback address.
        guard CredentialTransport.allowsToken(scheme: DockerCredentialWire.scheme(ofServerURL: serverURL), host: host.host) else {
            return missing(action, .plainHTTP(host: host))
        }
        guard let name = profiles.profile(for: host, picked: picked) else {
            return missing(action, picked.map { .notListedByPicked(profile: $0, host: host) } ?? .notListed(host: host))
        }
        let profile = try helper.context.resolve(SettingsFlags(profile: name))
        if action == .erase {
            helper.context.invalidateCachedToken(profile: profile.name)
            return .nothing
        }
        let token = try helper.token(profile)
        return .found(serverURL: serverURL, username: profiles.username(of: profile.name), secret: token.accessToken.reveal())
    }

    /// Over `ssh`: `get` asks the laptop (which picks the profile by its `hosts`), `list` knows
    /// no registries here (the laptop's configuration stays there), `erase` has nothing to
    /// forget.
    private func runForwarded(_ action: Action, _ forwarded: ForwardedHelperToken.Source) throws -> Answer {
        switch action {
        case .list:
            return .list([])
        case .get:
            let serverURL = DockerCredentialWire.serverURL(fromInput: try readInput())
            guard let host = DockerCredentialWire.host(ofServerURL: serverURL),
                  CredentialTransport.allowsToken(scheme: DockerCredentialWire.scheme(ofServerURL: serverURL), host: host.host) else {
                return .notFound(.notForForwarding(serverURL))
            }
            guard let answer = try forwarded(try helper.picked, host) else {
                return .notFound(.notForwarded(host: host))
            }
            return .found(serverURL: serverURL, username: answer.username ?? IntegrationSettings.defaultUsername, secret: answer.token.accessToken.reveal())
        case .erase, .store:
            _ = try readInput()
            return .nothing
        }
    }

    /// `erase` of something kcauth has nothing for is not an error.
    private func missing(_ action: Action, _ why: Missing) -> Answer {
        action == .get ? .notFound(why) : .nothing
    }

    private func readInput() throws -> String {
        try helper.input(CredentialHelper.docker.wire)
    }
}

extension KCAuthContext {
    /// docker's credential helper; `option`: the profile named on its command line.
    /// `forwarded`: where the laptop's tokens come from; nil: the forward `ssh` announced, if any.
    public func dockerCredential(option: String?, forwarded: ForwardedHelperToken.Source? = nil) -> DockerCredential {
        DockerCredential(HelperContext(context: self, option: option, forwarded: forwarded ?? forwardedToken().helperSource))
    }
}
