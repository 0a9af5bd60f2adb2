/// One setting: where it can be given and how it is checked. ``SettingsCatalogue`` lists them.
public struct SettingRow: Sendable, Equatable {
    /// The key in a profile's section (or, for `default_profile`, the global part); nil when
    /// the setting is never written to the file.
    public let key: String?
    /// The command-line flag, as a person types it (`--issuer`); nil when there is none.
    public let flag: String?
    /// The environment variable; nil when there is none.
    public let environment: String?
    /// Saved in the profile by `login` and used by every later command of the profile.
    public let remembered: Bool
    /// Decides which session a cached access token belongs to (``CacheBinding``): a flag or
    /// variable that overrides it makes the front hand the command to the full program.
    public let bindsCache: Bool
    public let check: SettingCheck
    /// One line for the documentation (docs/configuration.md, the man page).
    public let summary: String
    /// The flag's value placeholder and help line, for a flag the command line makes from its
    /// row (the sticky authorization parameters); nil where the command line writes its own.
    public let optionValue: String?
    public let optionHelp: String?

    public init(key: String?, flag: String? = nil, environment: String? = nil, remembered: Bool = true,
                bindsCache: Bool = false, check: SettingCheck = .text, summary: String,
                optionValue: String? = nil, optionHelp: String? = nil) {
        self.key = key
        self.flag = flag
        self.environment = environment
        self.remembered = remembered
        self.bindsCache = bindsCache
        self.check = check
        self.summary = summary
        self.optionValue = optionValue
        self.optionHelp = optionHelp
    }
}
