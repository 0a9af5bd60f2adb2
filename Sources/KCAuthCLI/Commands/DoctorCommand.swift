import KCAuth
import KCAuthContract
import KCAuthCore

/// `kcauth doctor`: every check kcauth depends on, one line each with a fix (`Doctor`).
enum DoctorCommand: Command {
    static let spec = CommandSpec(
        "doctor", summary: "Check the keyring, configuration, browser and provider",
        description: """
        Runs the checks kcauth depends on and prints one line for each, with a fix for what \
        failed: the D-Bus session bus, the Secret Service and its default collection (present \
        and unlocked; or the encrypted store, unlocked), the configuration file (and any key in \
        it kcauth does not read, by line), where each setting came from, the CA file, the hosts \
        the git and docker helpers answer for, the runtime directory, the browser launcher, and \
        the provider (issuer reachable, discovery document valid, clock skew against its Date \
        header). A check that does not apply is skipped: the keyring when the profile keeps its \
        session in a file, the provider when no issuer is configured. Exits with 0 only if no \
        check failed. Makes one request to the provider and never changes anything. \
        With --bundle FILE it writes a .tar.gz for a bug report instead of printing the checks: \
        kcauth's version and build, the OS, the versions of libcurl, OpenSSL, zlib and (when the \
        profile uses the keyring) libsecret as loaded, the profile's settings with each client \
        secret shown by its source and redacted form (never its value), the provider's \
        discovery document, the checks as text and JSON, and the --debug trace of a `kcauth \
        token` for the profile, run inside doctor (like `kcauth token`, it refreshes a token about \
        to expire; the token is not shown); it says on stderr what it collected. FILE is \
        replaced atomically (written 0600), never through a symbolic link; its directory must \
        exist. With --bundle, doctor exits with 0 once the archive is written, even when checks \
        failed (they are in the archive), and with 1 when it cannot be written.
        """,
        options: [
            CommandTable.profile,
            issuer, output, DoctorBundleReport.option,
        ],
        examples: ["kcauth doctor", "kcauth doctor --profile work -o json", "kcauth doctor --bundle kcauth-bug.tar.gz"])

    static let issuer = OptionSpec(SettingsCatalogue.issuer, help: "Check this issuer instead of the profile's")
    static let output = SessionOutput.option

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        if let path = command.value(DoctorBundleReport.option) {
            return try DoctorBundleReport.run(command, services, path: path)
        }
        let report = collect(command, services)
        let json = SessionOutput(command) == .json
        services.console.out(json ? renderJSON(report.checks, profile: report.profile) : renderText(report.checks))
        // The report ends with its own summary; the exit status is all that is left to say.
        guard report.checks.allPassed else { throw ReportedFailure(status: .failure) }
    }

    static func collect(_ command: ParsedCommand, _ services: Services) -> Doctor.Report {
        let flags = SettingsFlags(profile: command.value(SettingsOptions.profile), issuer: command.value(issuer))
        // The option texts are the command line's to check; a refused one is reported, not thrown.
        var refused: KCAuthError?
        do {
            for option in [SettingsOptions.profile, issuer] { _ = try SettingsOptions.text(command, option) }
        } catch {
            refused = KCAuthError.wrapping(error)
        }
        var report = services.context.doctor().run(flags, refused: refused, describeSettings: describeSettings)
        // A check that states a fact gets the CLI's words for it (they name its commands).
        let now = services.context.clock.instant
        report.checks = report.checks.map { check in
            var phrased = check
            if let fact = check.fact { phrased.detail = StoreWords.detail(fact, now: now) }
            return phrased
        }
        return report
    }

    /// Where each setting came from, so a surprising value can be traced to a flag, a variable
    /// or the file.
    static func describeSettings(_ p: ResolvedProfile) -> String {
        func describe<V>(_ name: String, _ setting: Setting<V>?, _ text: (V) -> String) -> String? {
            guard let setting else { return nil }
            return "\(name) \(text(setting.value)) (\(origin(setting)))"
        }
        let parts = [describe("profile", p.profile) { $0 }, describe("issuer", p.issuer) { $0 }, describe("client", p.clientID) { $0 },
                     describe("storage", p.storage) { $0.rawValue }, describe("CA file", p.caFile) { $0 },
                     describe("flow", p.flow) { $0.rawValue }].compactMap { $0 }
        return parts.joined(separator: "; ")
    }

    /// Where a setting came from: its flag, `$VARIABLE`, `.kcauth-profile`, the profile's key, or
    /// "default".
    static func origin<V>(_ setting: Setting<V>) -> String {
        let given = setting.origin.map(SettingOriginWords.name)
        switch setting.source {
        case .flag: return given ?? "a flag"
        case .environment: return "$" + (given ?? "environment")
        case .directory: return given ?? DirectoryProfile.fileName
        case .profile: return "the profile's \(given ?? "settings")"
        case .default: return "default"
        }
    }

    /// The next step of a failed check, in the CLI's words.
    static func fix(_ check: DoctorCheck) -> String? {
        check.fix ?? check.remedy.map(RemedyWords.text)
    }

    static func renderText(_ checks: [DoctorCheck]) -> String {
        var out = ""
        for check in checks {
            let status = switch check.status {
            case .pass: "ok"
            case .fail: "FAIL"
            case .skip: "skip"
            }
            var line = status.padded(to: 6) + check.title + ": " + check.detail
            if check.status == .fail, let fix = fix(check) { line += "; fix: " + fix }
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
                              ("detail", .string(c.detail)), ("fix", .string(fix(c)))])
        }
        return JSONValue.fields([("version", .number(SessionOutput.schemaVersion)), ("profile", .string(profile)),
                                 ("ok", .bool(checks.allPassed)), ("checks", .array(items))]).rendered()
    }
}
