import KCAuth
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
            OptionSpec("issuer", value: "URL", help: "Check this issuer instead of the profile's", environment: "KCAUTH_ISSUER"),
            OptionSpec("output", short: "o", value: "FORMAT", help: "Output format", default: "text", choices: ["text", "json"]),
        ],
        examples: ["kcauth doctor", "kcauth doctor --profile work -o json"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let profile = try profileName(command, services)
        let checks = collect(command, services, profile: profile)
        let json = command.value("output") == "json"
        services.console.out(json ? renderJSON(checks, profile: profile) : renderText(checks))
        let failed = checks.filter { $0.status == .fail }.count
        guard failed == 0 else {
            throw KCAuthError(.configuration, "\(failed) of \(checks.count) checks failed", hint: "fix them in the order shown")
        }
    }

    /// The profile as every command resolves it, except that a broken configuration file (which
    /// may name the default profile) is one of the things doctor reports, so it must not stop it.
    static func profileName(_ command: ParsedCommand, _ services: Services) throws -> String {
        do {
            return try services.profile(command)
        } catch let error as KCAuthError where error.code == .configuration {
            let name = command.value("profile") ?? services.environment["KCAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
            return name.flatMap { ProfileName.isValid($0) ? $0 : nil } ?? ProfileName.defaultName
        }
    }

    static func collect(_ command: ParsedCommand, _ services: Services, profile: String) -> [DoctorCheck] {
        let env = services.environment
        var saved: ProfileSettings?
        let config = configCheck(services, profile: profile, saved: &saved)

        // The keyring checks apply only to a profile that keeps its session there. An invalid
        // $KCAUTH_STORAGE is reported by the storage check rather than hidden.
        var storage: [DoctorCheck]
        do {
            let kind = try services.context.explicitStorage(option: nil) ?? saved?.storage ?? .keyring
            switch kind {
            case .keyring:
                storage = KeyringChecks(environment: env).run()
            case .file:
                storage = KeyringChecks.skipped("not used: profile '\(profile)' keeps its session in a file")
                storage.append(HostChecks(environment: env).fileStore(services.fileStore, profile: profile))
            case .memory:
                storage = KeyringChecks.skipped("not used: $KCAUTH_STORAGE is memory")
            }
        } catch {
            storage = [.fail("storage", "storage choice", KCAuthError.wrapping(error))]
        }

        let host = HostChecks(environment: env)
        let issuer = command.value("issuer") ?? env["KCAUTH_ISSUER"].flatMap { $0.isEmpty ? nil : $0 } ?? saved?.issuer
        // A broken config file must not stop the provider checks: the CA then comes from the
        // environment only.
        let caFile = (try? services.context.caFile(for: profile)) ?? env["KCAUTH_CA_FILE"].flatMap { $0.isEmpty ? nil : KCAuthContext.absolute($0) }
        let provider = ProviderChecks(transport: services.context.http(caFile: caFile).transport, clock: services.clock)
        return storage + [config, host.runtimeDirectory(), host.browser()] + provider.run(issuer: issuer, profile: profile)
    }

    static func configCheck(_ services: Services, profile: String, saved: inout ProfileSettings?) -> DoctorCheck {
        let (id, title) = ("config", "configuration")
        let store = services.settings
        do {
            let doc = try store.load()
            saved = try ProfileSettings(doc, profile: profile, path: store.path)
            let found = doc.profileNames.contains(profile) ? "profile '\(profile)' found" : "no profile '\(profile)' yet"
            return .pass(id, title, "\(store.path): \(found)")
        } catch {
            return .fail(id, title, KCAuthError.wrapping(error), fix: "fix the file by hand (kcauth never rewrites a file it cannot read)")
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
        }
        return out
    }

    static func renderJSON(_ checks: [DoctorCheck], profile: String) -> String {
        let items = checks.map { c in
            JSONValue.fields([("id", .string(c.id)), ("title", .string(c.title)), ("status", .string(c.status.rawValue)),
                              ("detail", .string(c.detail)), ("fix", .string(c.fix))])
        }
        return JSONValue.fields([("profile", .string(profile)), ("ok", .bool(checks.allPassed)),
                                 ("checks", .array(items))]).compact + "\n"
    }
}
