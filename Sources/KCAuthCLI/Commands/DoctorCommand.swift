import KCAuth
import KCAuthContract
import KCAuthCore
import KCAuthSystem

/// `kcauth doctor`: every check kcauth depends on, one line each with a fix (issue 7).
enum DoctorCommand: Command {
    static let spec = CommandSpec(
        "doctor", summary: "Check the keyring, configuration, browser and provider",
        description: """
        Runs the checks kcauth depends on and prints one line for each, with a fix for what \
        failed: the D-Bus session bus, the Secret Service and its default collection (present \
        and unlocked), the configuration file, the runtime directory, the browser launcher, and \
        the provider (issuer reachable, discovery document valid, clock skew against its Date \
        header). A check that does not apply is skipped: the keyring when the profile keeps its \
        session in a file, the provider when no issuer is configured. Exits with 0 only if no \
        check failed. Makes one request to the provider and never changes anything.
        """,
        options: [
            CommandTable.profile,
            issuer, output,
        ],
        examples: ["kcauth doctor", "kcauth doctor --profile work -o json"])

    static let issuer = OptionSpec("issuer", value: "URL", help: "Check this issuer instead of the profile's", environment: "KCAUTH_ISSUER")
    static let output = OptionSpec("output", short: "o", value: "FORMAT", help: "Output format", default: "text", choices: ["text", "json"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let (profile, checks) = collect(command, services)
        let json = command.value(output) == "json"
        services.console.out(json ? renderJSON(checks, profile: profile) : renderText(checks))
        // The report ends with its own summary; the exit status is all that is left to say.
        guard checks.allPassed else { throw ReportedFailure(status: .failure) }
    }

    /// Every check, with the settings resolved as every command resolves them, except that a
    /// broken configuration file (or a bad value in it) is one of the things doctor reports, so
    /// it must not stop the other checks: they then use flags and environment only.
    static func collect(_ command: ParsedCommand, _ services: Services) -> (profile: String, checks: [DoctorCheck]) {
        let context = services.context
        let env = services.environment
        let flags = SettingsFlags(profile: command.value(SettingsOptions.profile), issuer: command.value(issuer))
        let config = configCheck(services, profile: flags.profile)
        var resolved: ResolvedProfile?
        var resolveError: KCAuthError?
        do {
            for option in [SettingsOptions.profile, issuer] { try SettingsOptions.text(command, option) }
            resolved = try context.resolve(flags)
        } catch {
            resolveError = KCAuthError.wrapping(error)
            // A bad value in the file or the environment: check what can still be checked.
            resolved = (try? context.resolver(tolerant: true).resolve(flags))
                ?? (try? SettingsResolver(environment: [:], config: nil, configPath: context.settings.path, workingDirectory: nil).resolve(flags))
        }
        let profile = resolved?.name ?? ProfileName.defaultName

        // The keyring checks apply only to a profile that keeps its session there.
        var storage: [DoctorCheck]
        switch resolved?.storage.value {
        case .keyring?:
            storage = KeyringChecks(environment: env).run()
        case .file?:
            storage = KeyringChecks.skipped("not used: profile '\(profile)' keeps its session in a file")
            storage.append(HostChecks(environment: env).fileStore(FileSecretStore(directory: Paths(environment: env).stateDirectory), profile: profile))
        case .encrypted?:
            storage = KeyringChecks.skipped("not used: profile '\(profile)' keeps its session in the encrypted store")
            if let store = context.store(.encrypted).withoutUnlockPrompts() as? EncryptedSecretStore {
                storage += EncryptedStoreChecks(store: store, profile: profile).run()
            }
        case .memory?:
            storage = KeyringChecks.skipped("not used: $KCAUTH_STORAGE is memory")
        default:
            storage = [.fail("storage", "storage choice", resolveError ?? KCAuthError(.configuration, "no storage could be chosen"),
                             fix: resolveError.flatMap(LoginHint.hint(for:)))]
        }

        let host = HostChecks(environment: env)
        let provider = ProviderChecks(transport: context.http(caFile: resolved?.caFile?.value).transport, clock: context.clock)
        let settings = resolved.map(settingsCheck) ?? []
        return (profile, storage + [config(profile)] + settings + [host.runtimeDirectory(), host.browser()]
                    + provider.run(issuer: resolved?.issuer?.value, profile: profile, dpop: resolved?.dpop.value ?? .no,
                                   par: resolved?.par.value ?? .auto))
    }

    /// Where each setting came from, so a surprising value can be traced to a flag, a variable
    /// or the file.
    static func settingsCheck(_ p: ResolvedProfile) -> [DoctorCheck] {
        func describe<V>(_ name: String, _ setting: Setting<V>?, _ text: (V) -> String) -> String? {
            guard let setting else { return nil }
            let origin: String
            let given = setting.origin.map(SettingOriginWords.name)
            switch setting.source {
            case .flag: origin = given ?? "a flag"
            case .environment: origin = "$" + (given ?? "environment")
            case .directory: origin = given ?? DirectoryProfile.fileName
            case .profile: origin = "the profile's \(given ?? "settings")"
            case .default: origin = "default"
            }
            return "\(name) \(text(setting.value)) (\(origin))"
        }
        let parts = [describe("profile", p.profile) { $0 }, describe("issuer", p.issuer) { $0 }, describe("client", p.clientID) { $0 },
                     describe("storage", p.storage) { $0.rawValue }, describe("CA file", p.caFile) { $0 },
                     describe("flow", p.flow) { $0.rawValue }].compactMap { $0 }
        return [.pass("settings", "settings", parts.joined(separator: "; "))]
    }

    /// The configuration file check, for whichever profile the settings resolve to.
    static func configCheck(_ services: Services, profile flag: String?) -> (String) -> DoctorCheck {
        let (id, title) = ("config", "configuration")
        let path = services.context.settings.path
        return { profile in
            do {
                let doc = try services.context.config()
                _ = try ProfileSettings(doc, profile: profile, path: path)
                let found = doc.profileNames.contains(profile) ? "profile '\(profile)' found" : "no profile '\(profile)' yet"
                return .pass(id, title, "\(path): \(found)")
            } catch {
                return .fail(id, title, KCAuthError.wrapping(error), fix: "fix the file by hand (kcauth never rewrites a file it cannot read)")
            }
        }
    }

    static func renderText(_ checks: [DoctorCheck]) -> String {
        var out = ""
        for check in checks {
            let status = ["pass": "ok", "fail": "FAIL", "skip": "skip"][check.status.rawValue]!
            var line = status.padded(to: 6) + check.title + ": " + check.detail
            if check.status == .fail, let fix = check.fix { line += "; fix: " + fix }
            out += Sanitize.oneLine(line, limit: 1000) + "\n"
        }
        if checks.allPassed {
            let skipped = checks.filter { $0.status == .skip }.count
            out += skipped == 0 ? "All checks passed.\n" : "All checks passed (\(skipped) skipped).\n"
        } else {
            out += "\(checks.filter { $0.status == .fail }.count) of \(checks.count) checks failed; fix them in the order shown.\n"
        }
        return out
    }

    static func renderJSON(_ checks: [DoctorCheck], profile: String) -> String {
        let items = checks.map { c in
            JSONValue.fields([("id", .string(c.id)), ("title", .string(c.title)), ("status", .string(c.status.rawValue)),
                              ("detail", .string(c.detail)), ("fix", .string(c.fix))])
        }
        return JSONValue.fields([("version", .number(SessionOutput.schemaVersion)), ("profile", .string(profile)),
                                 ("ok", .bool(checks.allPassed)), ("checks", .array(items))]).rendered()
    }
}
