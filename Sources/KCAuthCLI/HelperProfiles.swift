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

    /// `--profile` wins (the helper is configured for one host in git's config); otherwise the
    /// first profile whose `hosts` lists the server. `$KCAUTH_PROFILE` is deliberately not
    /// used: a variable set in a shell must not send a token to every server git talks to.
    func profile(for host: CredentialHost, explicit: ParsedCommand, _ services: Services) throws -> ResolvedProfile? {
        let name = explicit.value(Self.helperProfileOption)
            ?? HostRouting.profile(for: host, among: profiles.map { ($0.name, $0.settings.hosts ?? []) })
        return try name.map { try services.context.resolve(SettingsFlags(profile: $0)) }
    }

    /// The user name git or docker are given for a profile: the setting, else `oauth2`.
    func username(of profile: String) -> String {
        profiles.first { $0.name == profile }?.settings.username ?? IntegrationSettings.defaultUsername
    }

    /// Not `CommandTable.profile`: no `$KCAUTH_PROFILE`, no default (see `profile(for:)`).
    static let helperProfileOption = OptionSpec("profile", value: "NAME",
                                                help: "Answer with this profile, whatever the host (else the profile whose hosts setting lists it)",
                                                completes: .profiles)
}
