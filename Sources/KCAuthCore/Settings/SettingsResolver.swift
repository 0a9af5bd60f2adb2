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
    /// For relative `--ca-file` paths; nil when unknown.
    public let workingDirectory: String?

    /// The profile the working directory names (`.kcauth-profile`), already checked against
    /// the configuration; asked only when neither the flag nor `KCAUTH_PROFILE` decides.
    public let directoryProfile: @Sendable () -> (name: String, path: String)?

    public init(environment: [String: String], config: ConfigDocument?, configPath: String, workingDirectory: String?,
                directoryProfile: @escaping @Sendable () -> (name: String, path: String)? = { nil }) {
        self.directoryProfile = directoryProfile
        self.environment = EnvironmentValues(environment)
        self.config = config
        self.configPath = configPath
        self.workingDirectory = workingDirectory
    }

    /// `--profile`, else `$KCAUTH_PROFILE`, else the directory's `.kcauth-profile`, else the
    /// file's `default_profile`, else `default`.
    public func profile(_ flag: String?) throws -> Setting<String> {
        let setting: Setting<String>
        if let flag {
            try InputText.check(flag, from: "--profile")
            setting = Setting(flag, .flag, origin: "--profile")
        } else if let env = try environment.value("KCAUTH_PROFILE") {
            setting = Setting(env, .environment, origin: "KCAUTH_PROFILE")
        } else if let chosen = directoryProfile() {
            setting = Setting(chosen.name, .directory, origin: chosen.path)
        } else if let named = try config?.defaultProfile(path: configPath) {
            setting = Setting(named, .profile, origin: ConfigDocument.defaultProfileKey)
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
        for (value, origin) in [(flags.issuer, "--issuer"), (flags.server, "--server"), (flags.realm, "--realm"),
                                (flags.clientID, "--client-id"), (flags.scope, "--scope"), (flags.storage, "--storage"),
                                (flags.caFile, "--ca-file"), (flags.port, "--port"), (flags.timeout, "--timeout"),
                                (flags.browserCommand, "--browser-command")] {
            if let value { try InputText.check(value, from: origin) }
        }
        let saved = try config.map { try ProfileSettings($0, profile: profile.value, path: configPath) } ?? ProfileSettings()
        var resolved = ResolvedProfile(
            profile: profile,
            issuer: try issuer(flags, saved: saved, profile: profile.value),
            clientID: try pick(flags.clientID, "--client-id", env: "KCAUTH_CLIENT_ID", saved: saved.clientID, key: "client_id"),
            scope: try pick(flags.scope, "--scope", env: nil, saved: saved.scope, key: "scope").map { Setting(Scope.normalize($0.value), $0.source, origin: $0.origin) }
                ?? Setting(Scope.normalize(Scope.defaultScope), .default),
            storage: try storage(flags.storage, saved: saved),
            caFile: try caFile(flags.caFile, saved: saved),
            flow: try flow(flags.flow, saved: saved),
            port: try port(flags.port, saved: saved),
            timeout: try timeout(flags.timeout),
            saved: saved,
            browserCommand: try browserCommand(flags.browserCommand, saved: saved))
        try resolveLogin(flags.login, saved: saved, into: &resolved)
        return resolved
    }

    /// flag, else environment, else the saved value.
    func pick(_ flag: String?, _ flagName: String, env: String?, saved: String?, key: String) throws -> Setting<String>? {
        if let flag, !flag.isEmpty { return Setting(flag, .flag, origin: flagName) }
        if let env, let value = try environment.value(env) { return Setting(value, .environment, origin: env) }
        if let saved, !saved.isEmpty { return Setting(saved, .profile, origin: key) }
        return nil
    }

    private func issuer(_ f: SettingsFlags, saved: ProfileSettings, profile: String) throws -> Setting<String>? {
        let raw: Setting<String>?
        switch (f.issuer, f.server, f.realm) {
        case (.some, .some, _), (.some, _, .some):
            throw KCAuthError(.usage, "give either --issuer or --server with --realm, not both")
        case (.some(let issuer), nil, nil):
            raw = Setting(issuer, .flag, origin: "--issuer")
        case (nil, .some(let server), .some(let realm)):
            guard !realm.isEmpty, !realm.contains("/") else { throw KCAuthError(.usage, "'\(Sanitize.oneLine(realm))' is not a realm name") }
            raw = Setting((server.hasSuffix("/") ? String(server.dropLast()) : server) + "/realms/" + FormEncoding.escape(realm),
                          .flag, origin: "--server/--realm")
        case (nil, .some, nil), (nil, nil, .some):
            throw KCAuthError(.usage, "--server and --realm go together")
        case (nil, nil, nil):
            raw = try pick(nil, "--issuer", env: "KCAUTH_ISSUER", saved: saved.issuer, key: "issuer")
        }
        guard let raw else { return nil }
        do {
            return Setting(try IssuerPolicy.normalizedIssuer(raw.value), raw.source, origin: raw.origin)
        } catch let error as KCAuthError where raw.source == .profile {
            // A bad saved issuer is the file's fault, not the command line's.
            throw KCAuthError(.configuration, "\(configPath): profile [\(profile)]: \(error.message)", remedy: .fixSavedIssuer)
        }
    }

    private func storage(_ flag: String?, saved: ProfileSettings) throws -> Setting<StorageKind> {
        if let flag { return Setting(try StorageKind(parsing: flag, source: "--storage"), .flag, origin: "--storage") }
        if let env = try environment.value("KCAUTH_STORAGE") {
            return Setting(try StorageKind(parsing: env, source: "$KCAUTH_STORAGE"), .environment, origin: "KCAUTH_STORAGE")
        }
        if let kind = saved.storage { return Setting(kind, .profile, origin: "storage") }
        return Setting(.keyring, .default)
    }

    /// Made absolute: it is saved in the profile, so it must not depend on where kcauth ran.
    func absolute(_ raw: Setting<String>) throws -> Setting<String> {
        if raw.value.hasPrefix("/") { return raw }
        guard let cwd = workingDirectory, cwd.hasPrefix("/") else {
            throw KCAuthError(.usage, "give \(raw.origin ?? "the file") as an absolute path, not '\(Sanitize.oneLine(raw.value))'")
        }
        return Setting(cwd + "/" + raw.value, raw.source, origin: raw.origin)
    }

    private func caFile(_ flag: String?, saved: ProfileSettings) throws -> Setting<String>? {
        guard let raw = try pick(flag, "--ca-file", env: "KCAUTH_CA_FILE", saved: saved.caFile, key: "ca_file") else { return nil }
        if raw.value.hasPrefix("/") { return raw }
        guard let cwd = workingDirectory, cwd.hasPrefix("/") else {
            throw KCAuthError(.usage, "give \(raw.origin ?? "the CA file") as an absolute path, not '\(Sanitize.oneLine(raw.value))'")
        }
        return Setting(cwd + "/" + raw.value, raw.source, origin: raw.origin)
    }

    private func flow(_ flag: FlowSetting?, saved: ProfileSettings) throws -> Setting<FlowSetting>? {
        if let flag { return Setting(flag, .flag, origin: "--flow") }
        if let raw = try environment.value("KCAUTH_FLOW") {
            guard let setting = FlowSetting(rawValue: raw.lowercased()) else {
                throw KCAuthError(.usage, "KCAUTH_FLOW must be auto, browser or device, not '\(Sanitize.oneLine(raw))'")
            }
            return Setting(setting, .environment, origin: "KCAUTH_FLOW")
        }
        if let remembered = saved.flow { return Setting(remembered == .browser ? .browser : .device, .profile, origin: "flow") }
        return nil
    }

    /// The flag (an empty one forgets the saved command), else the profile's `browser_command`.
    /// Not from the environment: `$BROWSER` is the environment's way, and stays below both.
    private func browserCommand(_ flag: String?, saved: ProfileSettings) throws -> Setting<BrowserCommand>? {
        if let flag {
            return flag.trimmingWhitespace().isEmpty ? nil : Setting(try BrowserCommand(flag), .flag, origin: "--browser-command")
        }
        guard let text = saved.browserCommand else { return nil }
        return Setting(try BrowserCommand(text, origin: "browser_command"), .profile, origin: "browser_command")
    }

    private func port(_ flag: String?, saved: ProfileSettings) throws -> Setting<UInt16> {
        if let flag {
            guard flag.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let port = UInt16(flag) else {
                throw KCAuthError(.usage, "--port takes a number from 0 to 65535, not '\(Sanitize.oneLine(flag))'")
            }
            return Setting(port, .flag, origin: "--port")
        }
        if let port = saved.port { return Setting(port, .profile, origin: "port") }
        return Setting(0, .default)
    }

    private func timeout(_ flag: String?) throws -> Setting<Double> {
        guard let flag else { return Setting(Self.defaultTimeout, .default) }
        return Setting(try Self.seconds(flag, option: "--timeout", range: Self.timeoutRange), .flag, origin: "--timeout")
    }

    /// A number of seconds typed by a person: plain decimal digits (no hex, no exponent, no
    /// `inf`), within `range`.
    public static func seconds(_ raw: String, option: String, range: ClosedRange<Double>) throws -> Double {
        let plain = !raw.isEmpty && raw.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || $0 == 46 } && raw.utf8.filter({ $0 == 46 }).count <= 1
        guard plain, let n = Double(raw), n.isFinite, range.contains(n) else {
            throw KCAuthError(.usage, "\(option) takes a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not '\(Sanitize.oneLine(raw))'")
        }
        return n
    }
}
