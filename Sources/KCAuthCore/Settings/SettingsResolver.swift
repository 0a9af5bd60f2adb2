import FoundationEssentials

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
            setting = Setting(flag, .flag, origin: .option("profile"))
        } else if let env = try environment.value("KCAUTH_PROFILE") {
            setting = Setting(env, .environment, origin: .environment("KCAUTH_PROFILE"))
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
            clientID: try pick(flags.clientID, env: "KCAUTH_CLIENT_ID", saved: saved.clientID, key: "client_id"),
            scope: try pick(flags.scope, env: nil, saved: saved.scope, key: "scope").map { Setting(Scope.normalize($0.value), $0.source, origin: $0.origin) }
                ?? Setting(Scope.normalize(Scope.defaultScope), .default),
            storage: try storage(flags.storage, saved: saved),
            caFile: try caFile(flags.caFile, saved: saved),
            flow: try flow(flags.flow, saved: saved),
            port: port(flags.port, saved: saved),
            timeout: flags.timeout.map { Setting($0, .flag, origin: .option("timeout")) } ?? Setting(Self.defaultTimeout, .default),
            saved: saved,
            browserCommand: try browserCommand(flags, saved: saved))
        try resolveLogin(flags.login, saved: saved, into: &resolved)
        return resolved
    }

    /// The option, else the environment, else the saved value of setting `key`.
    func pick(_ flag: String?, env: String?, saved: String?, key: String) throws -> Setting<String>? {
        if let flag, !flag.isEmpty { return Setting(flag, .flag, origin: .option(key)) }
        if let env, let value = try environment.value(env) { return Setting(value, .environment, origin: .environment(env)) }
        if let saved, !saved.isEmpty { return Setting(saved, .profile, origin: .file(key)) }
        return nil
    }

    private func issuer(_ f: SettingsFlags, saved: ProfileSettings, profile: String) throws -> Setting<String>? {
        let raw: Setting<String>?
        switch (f.issuer, f.server, f.realm) {
        // The command line says which of its options clash before it gets here.
        case (.some, .some, _), (.some, _, .some):
            throw KCAuthError(.usage, "give either an issuer or a server with a realm, not both")
        case (.some(let issuer), nil, nil):
            raw = Setting(issuer, .flag, origin: .option("issuer"))
        case (nil, .some(let server), .some(let realm)):
            guard !realm.isEmpty, !realm.contains("/") else { throw KCAuthError(.usage, "'\(Sanitize.oneLine(realm))' is not a realm name") }
            raw = Setting((server.hasSuffix("/") ? String(server.dropLast()) : server) + "/realms/" + FormEncoding.escape(realm),
                          .flag, origin: .serverAndRealm)
        case (nil, .some, nil), (nil, nil, .some):
            throw KCAuthError(.usage, "a server and a realm go together")
        case (nil, nil, nil):
            raw = try pick(nil, env: "KCAUTH_ISSUER", saved: saved.issuer, key: "issuer")
        }
        guard let raw else { return nil }
        do {
            return Setting(try IssuerPolicy.normalizedIssuer(raw.value), raw.source, origin: raw.origin)
        } catch let error as KCAuthError where raw.source == .profile {
            // A bad saved issuer is the file's fault, not the command line's.
            throw KCAuthError(.configuration, "\(configPath): profile [\(profile)]: \(error.message)", remedy: .fixSavedIssuer)
        }
    }

    private func storage(_ flag: StorageKind?, saved: ProfileSettings) throws -> Setting<StorageKind> {
        if let flag { return Setting(flag, .flag, origin: .option("storage")) }
        if let env = try environment.value("KCAUTH_STORAGE") {
            return Setting(try StorageKind(parsing: env, source: "$KCAUTH_STORAGE"), .environment, origin: .environment("KCAUTH_STORAGE"))
        }
        if let kind = saved.storage { return Setting(kind, .profile, origin: .file("storage")) }
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
        guard let raw = try pick(flag, env: "KCAUTH_CA_FILE", saved: saved.caFile, key: "ca_file") else { return nil }
        return try absolute(raw)
    }

    private func flow(_ flag: FlowSetting?, saved: ProfileSettings) throws -> Setting<FlowSetting>? {
        if let flag { return Setting(flag, .flag, origin: .option("flow")) }
        if let raw = try environment.value("KCAUTH_FLOW") {
            guard let setting = FlowSetting(rawValue: raw.lowercased()) else {
                throw KCAuthError(.usage, "KCAUTH_FLOW must be auto, browser or device, not '\(Sanitize.oneLine(raw))'")
            }
            return Setting(setting, .environment, origin: .environment("KCAUTH_FLOW"))
        }
        if let remembered = saved.flow { return Setting(remembered == .browser ? .browser : .device, .profile, origin: .file("flow")) }
        return nil
    }

    /// The option (an empty one forgets the saved command), else the profile's `browser_command`.
    /// Not from the environment: `$BROWSER` is the environment's way, and stays below both.
    private func browserCommand(_ flags: SettingsFlags, saved: ProfileSettings) throws -> Setting<BrowserCommand>? {
        if flags.forgetsBrowserCommand { return nil }
        if let given = flags.browserCommand { return Setting(given, .flag, origin: .option("browser_command")) }
        guard let text = saved.browserCommand else { return nil }
        return Setting(try BrowserCommand(text, origin: "browser_command"), .profile, origin: .file("browser_command"))
    }

    private func port(_ flag: UInt16?, saved: ProfileSettings) -> Setting<UInt16> {
        if let flag { return Setting(flag, .flag, origin: .option("port")) }
        if let port = saved.port { return Setting(port, .profile, origin: .file("port")) }
        return Setting(0, .default)
    }
}
