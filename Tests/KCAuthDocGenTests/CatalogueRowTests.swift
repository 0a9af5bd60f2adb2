import Testing
@testable import KCAuthCLI
@testable import KCAuthCore
@testable import KCAuthDocGen
import KCAuthContract
import KCAuthTestSupport

/// Every row of the settings catalogue held to what is built from it: the parser's options (flag,
/// value placeholder, choices, variable), the resolver (its variable, the precedence flag >
/// environment > profile, each with its origin), the profile reader and writer (read → apply →
/// read of every key login remembers) and the docs (docs/configuration.md's table, the man page).
@Suite struct CatalogueRowTests {
    /// Rows of the command line: the profile's keys that have a flag, `--profile`, `--timeout`,
    /// `--passphrase-file`.
    static let flagRows = ([SettingsCatalogue.profile] + SettingsCatalogue.profileRows
        + [SettingsCatalogue.passphraseFile, SettingsCatalogue.timeout]).filter { $0.flag != nil }

    /// Options that share a setting's flag but are not the setting: `setup-client --client-id`
    /// names the client it prints, `refresh --scope` and `ssh --scope` narrow one token.
    static let otherMeanings: Set<String> = ["setup-client --client-id", "refresh --scope", "ssh --scope"]

    /// The profile rows the resolver resolves (the helpers read `hosts` and `username`, the
    /// desktop reminder `sign_in_notification`, each where it is used).
    static let resolvedRows = [SettingsCatalogue.profile] + SettingsCatalogue.profileRows.filter {
        !$0.handEdited && $0.check != .switchOff
    }

    // MARK: the parser

    @Test(arguments: flagRows.map(\.name))
    func everyCommandThatTakesTheFlagTakesItAsTheRowSays(_ name: String) throws {
        let row = try #require(Self.flagRows.first { $0.name == name })
        var takers = 0
        for spec in CommandTable.commands {
            guard let option = spec.options.first(where: { "--" + $0.long == row.flag }),
                  !Self.otherMeanings.contains("\(spec.name) \(row.flag!)") else { continue }
            takers += 1
            #expect(option.value == row.optionValue, "\(spec.name) \(row.flag!): value \(option.value ?? "none") is not the row's")
            #expect(option.environment == row.environment, "\(spec.name) \(row.flag!): variable \(option.environment ?? "none") is not the row's")
            if let choices = row.optionChoices {
                #expect(option.choices == choices, "\(spec.name) \(row.flag!): choices are not the row's")
            }
            if row.isPath { #expect(option.valueCompletion == .files, "\(spec.name) \(row.flag!) completes no file names") }
        }
        #expect(takers > 0, "\(row.flag!) is in the catalogue but no command takes it")
        if row.writtenByLogin {
            #expect(LoginCommand.spec.option(long: String(row.flag!.dropFirst(2))) != nil, "login does not take \(row.flag!), which it remembers")
        }
    }

    /// Each choice the row's type lists parses, and a word it does not list is refused.
    @Test(arguments: flagRows.filter { $0.optionChoices != nil }.map(\.name))
    func theOptionTakesExactlyTheChoiceTypesWords(_ name: String) throws {
        let row = try #require(Self.flagRows.first { $0.name == name })
        for word in row.optionChoices! {
            let invocation = try ArgumentParser.parse(["login", row.flag!, word])
            guard case .run(let parsed) = invocation else { Issue.record("login \(row.flag!) \(word) is not a command"); continue }
            #expect(parsed.values[String(row.flag!.dropFirst(2))] == word)
        }
        #expect(throws: KCAuthError.self) { try ArgumentParser.parse(["login", row.flag!, "not-a-choice"]) }
    }

    // MARK: the resolver

    /// A value each check accepts, as a person would write it.
    static func sample(_ row: SettingRow) -> String {
        switch row.check {
        case .issuer: "https://sso.example.com/realms/demo"
        case .port: "8400"
        case .storage: StorageKind.file.rawValue
        case .flow: FlowSetting.device.rawValue
        case .dpop: DPoPMode.yes.rawValue
        case .par: PARMode.always.rawValue
        case .clientAssertionSource: AssertionSource.githubActionsWord
        case .clientAssertionType: ClientAssertionType.spiffe.rawValue
        case .browserCommand: "firefox %s"
        case .hosts: "git.example.com"
        case .username: "bob"
        case .grant: SettingCheck.clientCredentialsGrant
        case .clientAuthMethod: ClientSecretMethod.post.rawValue
        case .profileName: "work"
        case .switchOff: "off"
        case .debug: TraceMode.json.rawValue
        case .text: row.isPath ? "/etc/kcauth/\(row.name)" : row == SettingsCatalogue.clientKeyAlgorithm ? "PS256" : "value-of-\(row.name)"
        }
    }

    /// What must come with a row's value for it to mean anything: a key id or algorithm belongs
    /// to a client key, a secret's method to a secret, an assertion's audience and type to its source.
    static func companions(_ row: SettingRow) -> [SettingRow] {
        switch row {
        case SettingsCatalogue.clientKeyID, SettingsCatalogue.clientKeyAlgorithm: [SettingsCatalogue.clientKey]
        case SettingsCatalogue.clientAuthMethod: [SettingsCatalogue.clientSecretFile]
        case SettingsCatalogue.clientAssertionAudience, SettingsCatalogue.clientAssertionType: [SettingsCatalogue.clientAssertionFrom]
        default: []
        }
    }

    /// The rows that make up the client's authentication, which the resolver reads as one
    /// setting (its origin in the file is `client_auth`).
    static func isClientAuthentication(_ row: SettingRow) -> Bool {
        ClientAuthenticationSetting.rows.contains(row)
    }

    /// Every origin a resolved profile names, in any of its settings.
    static func origins(_ resolved: ResolvedProfile) -> [SettingOrigin] {
        var found: [SettingOrigin] = []
        func visit(_ value: Any) {
            if let setting = value as? any OriginCarrying {
                if let origin = setting.carriedOrigin { found.append(origin) }
                return
            }
            for child in Mirror(reflecting: value).children { visit(child.value) }
        }
        visit(resolved)
        return found
    }

    static func resolve(_ arguments: [String], environment: [String: String] = [:], file: [(SettingRow, String)] = []) throws -> ResolvedProfile {
        var doc = ConfigDocument()
        for (row, value) in file {
            if let key = row.key { doc.set(key, value, profile: "work") } else { doc.set(SettingsCatalogue.defaultProfile.key!, value, profile: nil) }
        }
        guard case .run(let command) = try ArgumentParser.parse(["login"] + arguments) else { throw KCAuthError(.usage, "no command") }
        let flow = try LoginFlowOptions(command).flag
        let flags = try LoginFlags.flags(command, flow: flow, workingDirectory: "/home/u")
        let profileFromFile = file.isEmpty || file.contains { $0.0 == SettingsCatalogue.profile }
        var env = environment
        if !profileFromFile, env[SettingsCatalogue.profile.environment!] == nil, flags.profile == nil {
            env[SettingsCatalogue.profile.environment!] = "work"
        }
        let resolver = SettingsResolver(environment: env, config: doc, configPath: "/c", workingDirectory: "/home/u")
        return try resolver.resolve(flags)
    }

    /// The row's file origin: its key, or `client_auth` for the client's authentication.
    static func fileOrigin(_ row: SettingRow) -> SettingOrigin {
        isClientAuthentication(row) ? .file("client_auth") : row == SettingsCatalogue.profile ? .file(SettingsCatalogue.defaultProfile.key!) : .file(row.key!)
    }

    static func arguments(_ row: SettingRow, _ value: String) -> [String] {
        row.optionValue == nil ? [row.flag!] : [row.flag!, value]
    }

    @Test(arguments: resolvedRows.map(\.name))
    func theResolverTakesFlagOverEnvironmentOverFile(_ name: String) throws {
        let row = try #require(Self.resolvedRows.first { $0.name == name })
        let value = Self.sample(row)
        let companions = Self.companions(row).map { ($0, Self.sample($0)) }
        // The profile's own row lives in the global part (`default_profile`).
        let fileRow = row == SettingsCatalogue.profile ? SettingsCatalogue.profile : row
        if row.key != nil || row == SettingsCatalogue.profile {
            let fromFile = try Self.resolve([], file: [(fileRow, value)] + companions)
            #expect(Self.origins(fromFile).contains(Self.fileOrigin(row)), "\(name): the file's value is not used")
        }
        if let variable = row.environment {
            let environmentValue = row == SettingsCatalogue.clientSecretEnv || row == SettingsCatalogue.clientAssertionEnv ? "s3cret" : value
            let fromEnvironment = try Self.resolve([], environment: [variable: environmentValue], file: [(fileRow, value)] + companions)
            let origins = Self.origins(fromEnvironment)
            #expect(origins.contains(.environment(variable)), "\(name): \(variable) is not read")
            #expect(!origins.contains(Self.fileOrigin(row)), "\(name): the file's value wins over \(variable)")
        }
        if let flag = row.flag, LoginCommand.spec.option(long: String(flag.dropFirst(2))) != nil {
            let flagArguments = Self.arguments(row, value) + Self.companions(row).flatMap { Self.arguments($0, Self.sample($0)) }
            let environment = row.environment.map { [$0: value] } ?? [:]
            let fromFlag = try Self.resolve(flagArguments, environment: environment, file: [(fileRow, value)] + companions)
            let origins = Self.origins(fromFlag)
            // A key id or algorithm is part of the client key's setting, which its flag names.
            let option = SettingOrigin.option(Self.companions(row).first?.name ?? row.name)
            #expect(origins.contains(option), "\(name): \(flag) is not used")
            if let variable = row.environment { #expect(!origins.contains(.environment(variable)), "\(name): \(variable) wins over \(flag)") }
            #expect(!origins.contains(Self.fileOrigin(row)), "\(name): the file's value wins over \(flag)")
        }
    }

    // MARK: the profile reader and writer

    @Test(arguments: SettingsCatalogue.profileRows.map(\.name))
    func whatLoginRemembersReadsBackAsWritten(_ name: String) throws {
        let row = try #require(SettingsCatalogue.row(key: name))
        var doc = ConfigDocument()
        doc.set(name, Self.sample(row), profile: "work")
        for companion in Self.companions(row) { doc.set(companion.key!, Self.sample(companion), profile: "work") }
        let read = try ProfileSettings(doc, profile: "work", path: "/c")
        #expect(read.text(row) == Self.sample(row), "\(name) is not read")

        var written = ConfigDocument()
        written.set("hand_written", "kept", profile: "work")
        if row.handEdited { written.set(name, "kept", profile: "work") }
        read.apply(to: &written, profile: "work")
        if row.writtenByLogin {
            #expect(written.value(name, profile: "work") == Self.sample(row), "\(name) is not written")
            #expect(try ProfileSettings(written, profile: "work", path: "/c") == read, "\(name) does not read back as written")
        } else {
            #expect(written.value(name, profile: "work") == (row.handEdited ? "kept" : nil), "\(name): login must not write it")
        }
        #expect(written.value("hand_written", profile: "work") == "kept")
    }

    /// A value the row's check refuses is refused by the reader, naming the file, line, profile and key.
    @Test(arguments: SettingsCatalogue.profileRows.filter { $0.check != .issuer && !$0.check.accepts("bogus value", at: .file) }.map(\.name))
    func theReaderRefusesWhatTheRowRefuses(_ name: String) throws {
        var doc = ConfigDocument()
        doc.set(name, "bogus value", profile: "work")
        let error = try #require(throws: KCAuthError.self) { try ProfileSettings(doc, profile: "work", path: "/c") }
        #expect(error.code == .configuration && error.message.hasPrefix("/c:2: profile [work]: \(name)"), "\(error.message)")
    }

    // MARK: the docs

    @Test func theDocsNameEveryRow() throws {
        let configuration = try Docs.read("docs/configuration.md")
        let man = Docs.plain(try Docs.read("man/kcauth.1"))
        for row in [SettingsCatalogue.defaultProfile] + SettingsCatalogue.profileRows {
            let line = try #require(configuration.split(separator: "\n").first { $0.hasPrefix("| `\(row.key!)` |") },
                                    "docs/configuration.md has no row for \(row.key!)")
            #expect(line == SettingsTable.markdown().split(separator: "\n").first { $0.hasPrefix("| `\(row.key!)` |") })
            #expect(man.contains(row.key!), "the man page does not name \(row.key!)")
        }
        for row in Self.flagRows {
            #expect(man.contains(row.flag!), "the man page does not name \(row.flag!)")
        }
        for row in SettingsCatalogue.all {
            if let variable = row.environment { #expect(man.contains(variable), "the man page does not name \(variable)") }
        }
    }
}

/// A resolved setting of any value type, as the resolver tests see it.
protocol OriginCarrying { var carriedOrigin: SettingOrigin? { get } }
extension Setting: OriginCarrying { var carriedOrigin: SettingOrigin? { origin } }
