/// One setting: where it can be given, how it is checked, and how its option and documentation
/// read. ``SettingsCatalogue`` lists them; the command line makes each option from its row, the
/// profile reader and writer loop over the rows, the resolver takes each variable from its row.
public struct SettingRow: Sendable {
    /// The key in a profile's section (or, for `default_profile`, the global part); nil when
    /// the setting is never written to the file.
    public let key: String?
    /// The command-line flag, as a person types it (`--issuer`); nil when there is none.
    public let flag: String?
    /// The environment variable; nil when there is none.
    public let environment: String?
    /// Saved in the profile by `login` and used by every later command of the profile.
    public let remembered: Bool
    /// Written by hand only (`hosts`, `username`): `login` keeps whatever the file says.
    public let handEdited: Bool
    /// Decides which session a cached access token belongs to (``CacheBinding``): a flag or
    /// variable that overrides it makes the front hand the command to the full program.
    public let bindsCache: Bool
    public let check: SettingCheck
    /// The value is a file's path: made absolute where it is given (it is saved in the profile,
    /// so it must not depend on where kcauth ran), completed as a file name.
    public let isPath: Bool
    /// Resolved, checked and remembered as text by the generic code (flag > environment >
    /// profile, `ResolvedProfile.text(_:)` in the core), with no code of its own but the code
    /// that uses the value. False for the settings the resolver types itself.
    public let plain: Bool
    /// The flag's value placeholder (`URL`); nil for a flag that takes no value.
    public let optionValue: String?
    /// What the option's help shows as its default (`keyring`); nil: none shown.
    public let optionDefault: String?
    // The texts are made when asked for (docs, help): the front builds these rows on every warm
    // `kcauth token`, and a text built from a choice type's words would cost it each time.
    private let summaryText: @Sendable () -> String
    private let optionHelpText: @Sendable () -> String

    public init(key: String?, flag: String? = nil, environment: String? = nil, remembered: Bool = true,
                handEdited: Bool = false, bindsCache: Bool = false, check: SettingCheck = .text, isPath: Bool = false,
                plain: Bool = false, summary: @autoclosure @escaping @Sendable () -> String,
                optionValue: String? = nil, optionDefault: String? = nil,
                optionHelp: @autoclosure @escaping @Sendable () -> String = "") {
        self.key = key
        self.flag = flag
        self.environment = environment
        self.remembered = remembered
        self.handEdited = handEdited
        self.bindsCache = bindsCache
        self.check = check
        self.isPath = isPath
        self.plain = plain
        self.summaryText = summary
        self.optionValue = optionValue
        self.optionDefault = optionDefault
        self.optionHelpText = optionHelp
    }

    /// One line for the documentation (docs/configuration.md, the man page).
    public var summary: String { summaryText() }
    /// The option's help line; nil for a setting without a flag.
    public var optionHelp: String? { flag == nil ? nil : optionHelpText() }
    /// The words the option takes, from the setting's choice type (``SettingCheck/choices(at:)``).
    public var optionChoices: [String]? { optionValue == nil ? nil : check.choices(at: .environment) }
    /// The setting's name where its value came from (``SettingOrigin``): its key, else its flag
    /// without the dashes (`profile`, `timeout`).
    public var name: String { key ?? flag.map { String($0.utf8.dropFirst(2))! } ?? environment ?? "" }
    /// Login writes it to the profile (and forgets it when the login gives none).
    public var writtenByLogin: Bool { key != nil && remembered && !handEdited }
}

extension SettingRow: Equatable {
    /// Rows are the same setting when they say the same about where it is given and how it is
    /// checked (the texts follow from those).
    public static func == (a: SettingRow, b: SettingRow) -> Bool {
        a.key == b.key && a.flag == b.flag && a.environment == b.environment && a.remembered == b.remembered
            && a.handEdited == b.handEdited && a.bindsCache == b.bindsCache && a.check == b.check && a.isPath == b.isPath
            && a.plain == b.plain && a.optionValue == b.optionValue && a.optionDefault == b.optionDefault
    }
}
