import FoundationEssentials
import KCAuthContract

/// Resolves settings from the command line, the environment and the configuration file (read
/// once, by whoever builds the resolver), in that order of precedence. Pure: no I/O.
public struct SettingsResolver: Sendable {
    public static let defaultTimeout: Double = 300
    public static let timeoutRange: ClosedRange<Double> = 1...86_400

    public let environment: EnvironmentValues
    /// The parsed configuration file; nil when it could not be read (only `doctor` goes on then,
    /// with flags and environment alone).
    public let config: ConfigDocument?
    public let configPath: String
    /// For relative `ca_file` paths; nil when unknown.
    public let workingDirectory: String?

    /// The profile the working directory names (`.kcauth-profile`), already checked against
    /// the configuration (a name it lacks is thrown); asked only when neither the flag nor
    /// `KCAUTH_PROFILE` decides.
    public let directoryProfile: @Sendable () throws -> (name: String, path: String)?

    public init(environment: [String: String], config: ConfigDocument?, configPath: String, workingDirectory: String?,
                directoryProfile: @escaping @Sendable () throws -> (name: String, path: String)? = { nil }) {
        self.directoryProfile = directoryProfile
        self.environment = EnvironmentValues(environment)
        self.config = config
        self.configPath = configPath
        self.workingDirectory = workingDirectory
    }

    /// The option (checked by the command line), else `$KCAUTH_PROFILE`, else the directory's
    /// `.kcauth-profile`, else the file's `default_profile`, else `default`.
    public func profile(_ flag: String?) throws -> Setting<String> {
        let setting: Setting<String>
        if let flag {
            setting = Setting(flag, .flag, origin: .option(SettingsCatalogue.profile.name))
        } else if let variable = SettingsCatalogue.profile.environment, let env = try environment.value(variable) {
            setting = Setting(env, .environment, origin: .environment(variable))
        } else if let chosen = try directoryProfile() {
            setting = Setting(chosen.name, .directory, origin: .directory(chosen.path))
        } else if let named = try config?.defaultProfile(path: configPath) {
            setting = Setting(named, .profile, origin: .file(ConfigDocument.defaultProfileKey))
        } else {
            setting = Setting(ProfileName.defaultName, .default)
        }
        guard ProfileName.isValid(setting.value) else {
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(setting.value))' is not a valid profile name", hint: "use letters, digits, '.', '_' and '-'")
        }
        return setting
    }

    public func resolve(_ flags: SettingsFlags) throws -> ResolvedProfile {
        let profile = try profile(flags.profile)
        let saved = try config.map { try ProfileSettings($0, profile: profile.value, path: configPath) } ?? ProfileSettings()
        var resolved = ResolvedProfile(
            profile: profile,
            issuer: try issuer(flags, saved: saved, profile: profile.value),
            clientID: try pick(flags.clientID, SettingsCatalogue.clientID, saved: saved.clientID),
            scope: try pick(flags.scope, SettingsCatalogue.scope, saved: saved.scope).map { Setting(Scope.normalize($0.value), $0.source, origin: $0.origin) }
                ?? Setting(Scope.normalize(Scope.defaultScope), .default),
            storage: try storage(flags.storage, saved: saved),
            caFile: try caFile(flags.caFile, saved: saved),
            flow: try flow(flags.flow, saved: saved),
            port: port(flags.port, saved: saved),
            timeout: flags.timeout.map { Setting($0, .flag, origin: .option(SettingsCatalogue.timeout.name)) } ?? Setting(Self.defaultTimeout, .default),
            saved: saved,
            browserCommand: try browserCommand(flags, saved: saved))
        try resolveLogin(flags.login, saved: saved, into: &resolved)
        try resolvePlain(flags, saved: saved, into: &resolved)
        return resolved
    }

    /// The option, else the row's variable, else the saved value of the row's setting.
    func pick(_ flag: String?, _ row: SettingRow, saved: String?, environment useEnvironment: Bool = true) throws -> Setting<String>? {
        if let flag, !flag.isEmpty { return Setting(flag, .flag, origin: .option(row.name)) }
        if useEnvironment, let variable = row.environment, let value = try environment.value(variable) {
            return Setting(value, .environment, origin: .environment(variable))
        }
        if let saved, !saved.isEmpty { return Setting(saved, .profile, origin: .file(row.name)) }
        return nil
    }

    /// The plain settings (``SettingRow/plain``): each from its option, variable or profile
    /// text, a path made absolute.
    private func resolvePlain(_ flags: SettingsFlags, saved: ProfileSettings, into resolved: inout ResolvedProfile) throws {
        for row in SettingsCatalogue.profileRows where row.plain {
            if flags.texts[row.name] == "" { continue }   // an empty option forgets the saved value
            guard let raw = try pick(flags.texts[row.name], row, saved: saved.text(row)) else { continue }
            if raw.source == .environment, !row.check.accepts(raw.value, at: .environment) {
                throw KCAuthError(.usage, "\(row.environment!)='\(Sanitize.oneLine(raw.value))' is not valid for \(row.name)")
            }
            resolved.plain[row.name] = row.isPath ? try absolute(raw) : raw
        }
    }

    private func issuer(_ f: SettingsFlags, saved: ProfileSettings, profile: String) throws -> Setting<String>? {
        let raw: Setting<String>?
        switch (f.issuer, f.server, f.realm) {
        // The command line says which of its options clash before it gets here.
        case (.some, .some, _), (.some, _, .some):
            throw KCAuthError(.usage, "give either an issuer or a server with a realm, not both")
        case (.some(let issuer), nil, nil):
            raw = Setting(issuer, .flag, origin: .option(SettingsCatalogue.issuer.name))
        case (nil, .some(let server), .some(let realm)):
            guard !realm.isEmpty, !realm.contains("/") else { throw KCAuthError(.usage, "'\(Sanitize.oneLine(realm))' is not a realm name") }
            raw = Setting((server.hasSuffix("/") ? String(server.dropLast()) : server) + "/realms/" + FormEncoding.escape(realm),
                          .flag, origin: .serverAndRealm)
        case (nil, .some, nil), (nil, nil, .some):
            throw KCAuthError(.usage, "a server and a realm go together")
        case (nil, nil, nil):
            raw = try pick(nil, SettingsCatalogue.issuer, saved: saved.issuer)
        }
        guard let raw else { return nil }
        do {
            return Setting(try IssuerPolicy.normalizedIssuer(raw.value), raw.source, origin: raw.origin)
        } catch let error as KCAuthError where raw.source == .profile {
            // A bad saved issuer is the file's fault, not the command line's.
            let place = config?.place(configPath, profile: profile, key: SettingsCatalogue.issuer.key) ?? "\(configPath): profile [\(profile)]"
            throw KCAuthError(.configuration, "\(place): \(error.message)", remedy: .fixSavedIssuer)
        }
    }

    private func storage(_ flag: StorageKind?, saved: ProfileSettings) throws -> Setting<StorageKind> {
        let row = SettingsCatalogue.storage
        if let flag { return Setting(flag, .flag, origin: .option(row.name)) }
        if let variable = row.environment, let env = try environment.value(variable) {
            return Setting(try StorageKind(parsing: env, source: "$" + variable), .environment, origin: .environment(variable))
        }
        if let kind = saved.storage { return Setting(kind, .profile, origin: .file(row.name)) }
        return Setting(.keyring, .default)
    }

    /// Made absolute: it is saved in the profile, so it must not depend on where kcauth ran.
    func absolute(_ raw: Setting<String>) throws -> Setting<String> {
        if raw.value.hasPrefix("/") { return raw }
        guard let cwd = workingDirectory, cwd.hasPrefix("/") else {
            throw KCAuthError(.usage, "give \(raw.origin?.plainName ?? "the file") as an absolute path, not '\(Sanitize.oneLine(raw.value))'")
        }
        return Setting(cwd + "/" + raw.value, raw.source, origin: raw.origin)
    }

    private func caFile(_ flag: String?, saved: ProfileSettings) throws -> Setting<String>? {
        guard let raw = try pick(flag, SettingsCatalogue.caFile, saved: saved.caFile) else { return nil }
        return try absolute(raw)
    }

    private func flow(_ flag: FlowSetting?, saved: ProfileSettings) throws -> Setting<FlowSetting>? {
        let row = SettingsCatalogue.flow
        if let flag { return Setting(flag, .flag, origin: .option(row.name)) }
        if let variable = row.environment, let raw = try environment.value(variable) {
            guard let setting = FlowSetting(rawValue: raw.lowercased()) else {
                throw KCAuthError(.usage, "\(variable) must be \(ChoiceWords.or(ChoiceWords.words(FlowSetting.self))), not '\(Sanitize.oneLine(raw))'")
            }
            return Setting(setting, .environment, origin: .environment(variable))
        }
        if let remembered = saved.flow { return Setting(remembered == .browser ? .browser : .device, .profile, origin: .file(row.name)) }
        return nil
    }

    /// The option (an empty one forgets the saved command), else the profile's `browser_command`.
    /// Not from the environment: `$BROWSER` is the environment's way, and stays below both.
    private func browserCommand(_ flags: SettingsFlags, saved: ProfileSettings) throws -> Setting<BrowserCommand>? {
        if flags.forgetsBrowserCommand { return nil }
        let name = SettingsCatalogue.browserCommand.name
        if let given = flags.browserCommand { return Setting(given, .flag, origin: .option(name)) }
        guard let text = saved.browserCommand else { return nil }
        return Setting(try BrowserCommand(text, origin: name), .profile, origin: .file(name))
    }

    private func port(_ flag: UInt16?, saved: ProfileSettings) -> Setting<UInt16> {
        if let flag { return Setting(flag, .flag, origin: .option(SettingsCatalogue.port.name)) }
        if let port = saved.port { return Setting(port, .profile, origin: .file(SettingsCatalogue.port.name)) }
        return Setting(0, .default)
    }
}
