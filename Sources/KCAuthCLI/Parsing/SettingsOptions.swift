import KCAuthContract
import KCAuthCore

/// The options that feed the settings resolver, made from their rows of the settings catalogue
/// (KCAuthContract: flag, value placeholder, help, choices, variable), shared by the commands that
/// take them, and the one function that turns a parsed command into `SettingsFlags`: it checks
/// what was typed and says what is wrong with it by the option's name, so that the resolver gets
/// typed values.
enum SettingsOptions {
    static let profile = OptionSpec(SettingsCatalogue.profile)
    static let issuer = OptionSpec(SettingsCatalogue.issuer)
    static let server = OptionSpec("server", value: "URL", help: "Keycloak base URL (with --realm; issuer = URL/realms/NAME)")
    static let realm = OptionSpec("realm", value: "NAME", help: "Keycloak realm (with --server)")
    static let clientID = OptionSpec(SettingsCatalogue.clientID)
    static let scope = OptionSpec(SettingsCatalogue.scope)
    static let port = OptionSpec(SettingsCatalogue.port)
    static let timeout = OptionSpec(SettingsCatalogue.timeout)
    static let caFile = OptionSpec(SettingsCatalogue.caFile)
    static let storage = OptionSpec(SettingsCatalogue.storage)
    static let flow = OptionSpec(SettingsCatalogue.flow)

    /// The options given as text that end up in a profile's settings, in the order they are checked.
    static let texts = [issuer, server, realm, clientID, scope, storage, caFile, port, timeout, LoginBrowserOptions.browserCommand]

    /// The options of the plain settings (``SettingRow/plain``) that `options` does not hold
    /// already: a command that remembers settings (`login`) takes every one, after its own.
    static func plain(besides options: [OptionSpec]) -> [OptionSpec] {
        SettingsCatalogue.profileRows.filter { row in
            row.plain && row.flag != nil && !options.contains { "--" + $0.long == row.flag }
        }.map { OptionSpec($0) }
    }

    /// What the command line said; options a command does not take are simply absent. Relative
    /// paths are made absolute against `workingDirectory` (they are saved in the profile).
    static func flags(_ c: ParsedCommand, flow: FlowSetting? = nil, workingDirectory: String?) throws -> SettingsFlags {
        let profileName = try profile(c)
        for option in texts { try text(c, option) }
        let (issuerValue, serverValue, realmValue) = (c.value(issuer), c.value(server), c.value(realm))
        if issuerValue != nil, serverValue != nil || realmValue != nil {
            throw KCAuthError(.usage, "give either --issuer or --server with --realm, not both")
        }
        if issuerValue == nil, (serverValue == nil) != (realmValue == nil) {
            throw KCAuthError(.usage, "--server and --realm go together")
        }
        var flags = SettingsFlags(profile: profileName, issuer: issuerValue, server: serverValue, realm: realmValue,
                                  clientID: c.value(clientID), scope: c.value(scope),
                                  storage: try c.value(storage).map { try StorageKind(parsing: $0, source: "--" + storage.long) },
                                  caFile: try c.value(caFile).map { try absolute($0, caFile, workingDirectory: workingDirectory) },
                                  flow: flow ?? c.value(Self.flow).flatMap(FlowSetting.init(rawValue:)),
                                  port: try c.value(port).map(OptionValues.port),
                                  timeout: try c.value(timeout).map { try OptionValues.seconds($0, option: "--" + timeout.long, range: SettingsResolver.timeoutRange) })
        if let command = c.value(LoginBrowserOptions.browserCommand) {
            if command.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                flags.forgetsBrowserCommand = true
            } else {
                flags.browserCommand = try BrowserCommand(command, origin: "--" + LoginBrowserOptions.browserCommand.long)
            }
        }
        flags.texts = try plainTexts(c, workingDirectory: workingDirectory)
        return flags
    }

    /// The plain settings' values given: one line of text each, one the row's check accepts, a
    /// path made absolute; an empty value (which forgets the saved one) as it is.
    static func plainTexts(_ c: ParsedCommand, workingDirectory: String?) throws -> [String: String] {
        var texts: [String: String] = [:]
        for row in SettingsCatalogue.profileRows where row.plain && row.flag != nil {
            let option = OptionSpec(row)
            guard let value = try text(c, option) else { continue }
            guard value.isEmpty || row.check.accepts(value, at: .environment) else {
                throw KCAuthError(.usage, "--\(option.long): '\(Sanitize.oneLine(value))' is not valid")
            }
            texts[row.name] = value.isEmpty || !row.isPath ? value : try absolute(value, option, workingDirectory: workingDirectory)
        }
        return texts
    }

    /// `--profile`, checked as text (its name is checked with the profile from elsewhere).
    static func profile(_ c: ParsedCommand) throws -> String? {
        try text(c, profile)
    }

    /// An option's value, which must be one line of text.
    @discardableResult
    static func text(_ c: ParsedCommand, _ option: OptionSpec) throws -> String? {
        guard let value = c.value(option) else { return nil }
        try InputText.check(value, from: "--" + option.long)
        return value
    }

    /// A path option made absolute: it is saved in the profile, so it must not depend on where
    /// kcauth ran.
    static func absolute(_ path: String, _ option: OptionSpec, workingDirectory: String?) throws -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = workingDirectory, cwd.hasPrefix("/") else {
            throw KCAuthError(.usage, "give --\(option.long) as an absolute path, not '\(Sanitize.oneLine(path))'")
        }
        return cwd + "/" + path
    }
}
