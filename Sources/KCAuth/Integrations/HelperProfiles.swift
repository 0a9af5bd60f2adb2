import KCAuthContract
import KCAuthCore

/// The profiles the git and docker credential helpers can answer with: each profile's `hosts`
/// and `username` settings, from the context's configuration (read once).
public struct HelperProfiles: Sendable {
    public var profiles: [(name: String, settings: ProfileSettings)]

    public init(_ context: KCAuthContext) throws {
        try self.init(try context.config(), path: context.settings.path)
    }

    /// The profiles of a configuration read by the caller (the forward's agent reads it again
    /// for every request, so a profile added while the connection is up is used at once).
    public init(_ doc: ConfigDocument, path: String) throws {
        profiles = try doc.profileNames.filter(ProfileName.isValid).map { ($0, try ProfileSettings(doc, profile: $0, path: path)) }
    }

    /// The profile the person picked: `option` (the helper's command line), else
    /// `$KCAUTH_PROFILE`, else the directory's `.kcauth-profile` (as for every other command);
    /// nil when none is set, and then the `hosts` settings choose.
    public static func picked(_ context: KCAuthContext, option: String?) throws -> String? {
        if let option { return option }
        if let variable = context.environment["KCAUTH_PROFILE"], !variable.isEmpty { return variable }
        // git and docker run the helper in the repository: its `.kcauth-profile` narrows too
        // (and one naming a profile the configuration lacks stops the helper).
        return try context.directoryProfile()?.name
    }

    /// The profile whose token `host` may have: the picked one if its `hosts` lists the host,
    /// else (nothing picked) the first profile that lists it. Picking a profile narrows the
    /// choice and never widens it: a helper string applies to every server git or docker talk
    /// to (a submodule, a redirect), and a token must reach only the servers its profile names.
    public func profile(for host: CredentialHost, picked: String?) -> String? {
        // The contract's rule (``HelperRule``): the front routes the same way.
        HelperRule.profile(for: host.rule, picked: picked, profiles: profiles.map { ($0.name, ($0.settings.hosts ?? []).map(\.rule)) })
    }

    /// The profiles the helpers answer for: the picked one, or all of them.
    public func candidates(picked: String?) -> [(name: String, settings: ProfileSettings)] {
        guard let picked else { return profiles }
        return profiles.filter { $0.name == picked }
    }

    /// The user name git or docker are given for a profile: the setting, else `oauth2`.
    public func username(of profile: String) -> String {
        profiles.first { $0.name == profile }?.settings.username ?? IntegrationSettings.defaultUsername
    }
}
