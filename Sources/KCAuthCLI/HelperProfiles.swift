import KCAuthContract
import KCAuthCore

/// The profiles the git and docker credential helpers can answer with, read from the
/// configuration file: each profile's `hosts` and `username` settings.
struct HelperProfiles {
    var profiles: [(name: String, settings: ProfileSettings)]

    static func load(_ services: Services) throws -> HelperProfiles {
        let store = services.context.settings
        let doc = try store.load()
        return HelperProfiles(profiles: try doc.profileNames.filter(ProfileName.isValid).map {
            ($0, try ProfileSettings(doc, profile: $0, path: store.path))
        })
    }

    /// The profile the person picked: `--profile`, else `$KCAUTH_PROFILE`, else the directory's
    /// `.kcauth-profile` (as for every other command); nil when none is set, and then the
    /// `hosts` settings choose.
    static func picked(_ command: ParsedCommand, _ services: Services) -> String? {
        if let flag = command.value(helperProfileOption) { return flag }
        if let variable = services.environment["KCAUTH_PROFILE"], !variable.isEmpty { return variable }
        // git and docker run the helper in the repository: its `.kcauth-profile` narrows too.
        return services.context.directoryProfile()?.name
    }

    /// The profile whose token `host` may have: the picked one if its `hosts` lists the host,
    /// else (nothing picked) the first profile that lists it. Picking a profile narrows the
    /// choice and never widens it: a helper string applies to every server git or docker talk
    /// to (a submodule, a redirect), and a token must reach only the servers its profile names.
    func profile(for host: CredentialHost, _ command: ParsedCommand, _ services: Services) throws -> ResolvedProfile? {
        // The contract's rule (``HelperRule``): the front routes the same way.
        let name = HelperRule.profile(for: host.rule, picked: Self.picked(command, services),
                                      profiles: profiles.map { ($0.name, ($0.settings.hosts ?? []).map(\.rule)) })
        return try name.map { try services.context.resolve(SettingsFlags(profile: $0)) }
    }

    /// The profiles the helpers answer for: the picked one, or all of them.
    func candidates(_ command: ParsedCommand, _ services: Services) -> [(name: String, settings: ProfileSettings)] {
        guard let picked = Self.picked(command, services) else { return profiles }
        return profiles.filter { $0.name == picked }
    }

    func lists(_ profile: String, _ host: CredentialHost) -> Bool {
        profiles.first { $0.name == profile }?.settings.hosts?.contains { host.isServed(by: $0) } ?? false
    }

    /// The user name git or docker are given for a profile: the setting, else `oauth2`.
    func username(of profile: String) -> String {
        profiles.first { $0.name == profile }?.settings.username ?? IntegrationSettings.defaultUsername
    }

    /// Not `CommandTable.profile`: no default; the variable is read by `picked`.
    static let helperProfileOption = OptionSpec("profile", value: "NAME",
                                                help: "Answer only with this profile, and only for the hosts it lists",
                                                environment: "KCAUTH_PROFILE", completes: .profiles)
}
