import KCAuthContract

/// A key of the configuration file that kcauth does not read where it stands (``ConfigDocument/unknownKeys()``):
/// a fact the front end phrases, with a guess at the key that was meant.
public struct UnknownConfigKey: Sendable, Equatable {
    public var key: String
    /// 1-based.
    public var line: Int
    /// The section it is in; nil: before the first section (the global part).
    public var profile: String?

    public init(key: String, line: Int, profile: String?) {
        self.key = key
        self.line = line
        self.profile = profile
    }

    /// The keys that may stand where it does.
    public var knownHere: [String] { profile == nil ? SettingsCatalogue.globalKeys : SettingsCatalogue.profileKeys }

    /// A key that is known, but only in the other part of the file: a profile's key before the
    /// first section, or `default_profile` inside one.
    public var belongsElsewhere: Bool {
        profile == nil ? SettingsCatalogue.row(key: key) != nil : SettingsCatalogue.globalKeys.contains(key)
    }
}
