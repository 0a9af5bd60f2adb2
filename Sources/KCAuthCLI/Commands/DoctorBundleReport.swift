import KCAuth
import KCAuthContract
import KCAuthCore

/// `kcauth doctor --bundle FILE`: a `.tar.gz` for a bug report — kcauth's version and build, the
/// OS and the libraries it runs with, the configuration (each secret by its source and redacted
/// form, never its value), the provider's discovery document, doctor's checks as text and JSON,
/// and the `--debug` trace of a `kcauth token` run in this process. Says on stderr what it put
/// in; stdout stays empty. Exits 0 once the archive is written, whatever the checks found.
enum DoctorBundleReport {
    static let option = OptionSpec("bundle", value: "FILE",
                                   help: "Write a .tar.gz for a bug report (versions, configuration without secrets, discovery, checks, a token trace) to FILE",
                                   completes: .files)
    static let folder = "kcauth-bundle/"

    static func run(_ command: ParsedCommand, _ services: Services, path: String) throws {
        try InputText.check(path, from: "--" + option.long)
        if command.value(DoctorCommand.output) != nil {
            throw KCAuthError(.usage, "--bundle writes the report as text and as JSON: drop -o")
        }
        let bundle = services.context.doctorBundle()
        // Refused before anything is collected: a missing directory, a link.
        try bundle.host.checkTarget(path)

        let report = DoctorCommand.collect(command, services)
        let flags = SettingsFlags(profile: command.value(SettingsOptions.profile), issuer: command.value(DoctorCommand.issuer))
        let resolved = (try? services.context.resolve(flags)) ?? (try? services.context.resolver(tolerant: true).resolve(flags))
        var parts: [(BundleMember, String)] = []
        func add(_ name: String, _ bytes: [UInt8], _ said: String) { parts.append((BundleMember(folder + name, bytes), said)) }

        let token = tokenRun(profile: report.profile, bundle, services)
        let facts = bundle.host.facts()
        add("version.txt", Array(version(facts).utf8), "kcauth \(KCAuthMain.version) (\(build) build)")
        add("system.txt", Array(system(facts).utf8), systemLine(facts))
        add("configuration.txt", Array(configuration(resolved, services).utf8),
            "the configuration of profile '\(report.profile)' (secrets by source and redacted form, never their values)")
        switch bundle.discoveryDocument(issuer: resolved?.issuer?.value, caFile: resolved?.caFile?.value) {
        case .success(let document):
            add("discovery.json", document, "the discovery document of \(resolved?.issuer?.value ?? "the issuer") (\(document.count) bytes)")
        case .failure(let error):
            add("discovery.txt", Array((error.message + "\n").utf8), "no discovery document: \(error.message)")
        }
        let failed = report.checks.filter { $0.status == .fail }.count
        add("doctor.txt", Array(DoctorCommand.renderText(report.checks).utf8),
            "doctor's checks, as text: " + (failed == 0 ? "all passed" : "\(failed) of \(report.checks.count) failed"))
        add("doctor.json", Array(DoctorCommand.renderJSON(report.checks, profile: report.profile).utf8), "doctor's checks, as JSON")
        add("token.txt", Array(token.outcome.utf8), "how `\(token.command)` ended: exit status \(token.status)")
        add("token-trace.log", token.trace, "the --debug trace of `\(token.command)` (\(token.trace.count { $0 == 0x0A }) lines)")

        try bundle.host.write(parts.map(\.0), to: path)
        for (member, said) in parts { services.console.err("bundle: \(member.name.dropFirst(folder.count)): \(said)\n") }
        services.console.err("wrote \(path): it holds no secret's value, but names your provider, accounts and paths; read it before you share it\n")
    }

    // MARK: the parts

    static var build: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    static var architecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "aarch64"
        #else
        "other"
        #endif
    }

    static func version(_ facts: HostFacts) -> String {
        "kcauth \(KCAuthMain.version)\nbuild: \(build), \(architecture)\nprogram: \(facts.executable ?? "unknown")\n"
    }

    static func library(_ library: HostFacts.Library) -> String {
        if let why = library.unavailable { return "\(library.name): cannot be loaded: \(why)" }
        if library.version == nil, library.file == nil {
            return "\(library.name): not loaded (kcauth loads it only for a profile that keeps its session in the keyring)"
        }
        var line = library.name + ": " + (library.version ?? library.file.map { "loaded from " + $0 } ?? "no version")
        if !library.details.isEmpty { line += " (" + library.details.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")" }
        return line
    }

    static func system(_ facts: HostFacts) -> String {
        var out = "uname: " + facts.uname.joined(separator: " ") + "\n"
        out += "libraries, as the loaded libraries report themselves:\n"
        for lib in facts.libraries { out += "  " + Sanitize.oneLine(library(lib), limit: 500) + "\n" }
        out += "/etc/os-release:\n"
        for line in facts.osRelease.split(separator: "\n") { out += "  " + Sanitize.oneLine(String(line), limit: 500) + "\n" }
        return out
    }

    static func systemLine(_ facts: HostFacts) -> String {
        let prettyLine = facts.osRelease.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
        let pretty = prettyLine.map { String($0.dropFirst("PRETTY_NAME=".count)).trimmingQuotes } ?? "unknown OS"
        var libraries: [String] = []
        for lib in facts.libraries {
            let name = lib.name.split(separator: " ").first.map(String.init) ?? lib.name
            // "OpenSSL 3.0.15 3 Sep 2024" -> "3.0.15"; libcurl and zlib say the number alone.
            let words = lib.version?.split(separator: " ") ?? []
            let number = words.count > 1 ? String(words[1]) : words.first.map(String.init)
            libraries.append(name + " " + (number ?? (lib.file == nil ? "(not loaded)" : "(loaded)")))
        }
        let system = facts.uname.prefix(2).joined(separator: " ")
        return "\(Sanitize.oneLine(pretty, limit: 100)), \(system); " + libraries.joined(separator: ", ")
    }

    /// Every setting of the profile with where it came from; a client secret by its source and
    /// its redacted form (``Secret``), read here only to show that it can be.
    static func configuration(_ resolved: ResolvedProfile?, _ services: Services) -> String {
        var out = "configuration file: \(services.context.settings.path)\n"
        guard let p = resolved else { return out + "the profile's settings could not be resolved (see doctor.txt)\n" }
        var shown: Set<String> = []
        func line<V>(_ name: String, _ setting: Setting<V>?, _ text: (V) -> String) {
            guard let setting, shown.insert(name).inserted else { return }
            out += "\(name) = \(Sanitize.oneLine(text(setting.value), limit: 500)) (\(DoctorCommand.origin(setting)))\n"
        }
        line("profile", p.profile) { $0 }
        line("issuer", p.issuer) { $0 }
        line("client_id", p.clientID) { $0 }
        line("scope", p.scope) { $0 }
        line("storage", p.storage) { $0.rawValue }
        line("ca_file", p.caFile) { $0 }
        line("flow", p.flow) { $0.rawValue }
        line("port", p.port) { String($0) }
        line("timeout", p.timeout) { String(Int($0)) }
        line("dpop", p.dpop) { $0.rawValue }
        line("par", p.par) { $0.rawValue }
        line("grant", p.grant) { $0 }
        line("browser_command", p.browserCommand) { $0.text }
        for parameter in StickyParameter.allCases { line(parameter.key, p.sticky[parameter]) { $0 } }
        for name in p.plain.keys.sorted() { line(name, p.plain[name]) { $0 } }
        let auth = p.clientAuth.value
        out += "client authentication: \(auth.methodName)"
        if let source = auth.sourceDescription {
            let origin = DoctorCommand.origin(p.clientAuth)
            out += ", from \(source)" + (origin == source ? "" : " (\(origin))")
        }
        if case .clientSecret(let source, _) = auth {
            do {
                out += ": \(try source.secret(using: services.context.adapters.credentials).secret.redacted)"
            } catch {
                out += ": cannot be read (\(Sanitize.oneLine(KCAuthError.wrapping(error).message, limit: 300)))"
            }
        }
        return out + "\n"
    }

    // MARK: the token run

    struct TokenRun {
        var command: String
        var status: Int32
        var outcome: String
        var trace: [UInt8]
    }

    /// `kcauth token --profile PROFILE` run in this process, as `kcauth-full` runs it, with its
    /// trace going to a private file: the token it prints is dropped, no desktop reminder is
    /// shown, and nothing runs as a child (so no secret is in any argv or environment).
    static func tokenRun(profile: String, _ bundle: DoctorBundle, _ services: Services) -> TokenRun {
        let arguments = [TokenCommand.spec.name, "--" + SettingsOptions.profile.long, profile]
        let command = "kcauth " + arguments.joined(separator: " ")
        do {
            let run = try bundle.traced { sink -> (Int32, String) in
                let console = CapturedErrors()
                let real = Services(environment: services.environment, console: console, trace: sink)
                var adapters = real.context.adapters
                adapters.reminder = { NoReminder() }
                let status = KCAuthMain.run(arguments: arguments, services: Services(context: KCAuthContext(adapters: adapters), console: console))
                return (status, console.text)
            }
            let outcome = "\(command)\nexit status: \(run.result.0)\n" + (run.result.1.isEmpty ? "" : "stderr:\n" + run.result.1)
            return TokenRun(command: command, status: run.result.0, outcome: outcome, trace: run.trace)
        } catch {
            let line = ErrorPresenter.line(KCAuthError.wrapping(error))
            return TokenRun(command: command, status: ExitStatus.failure.code, outcome: "\(command)\nnot run: \(line)\n", trace: [])
        }
    }
}

private extension String {
    /// os-release(5) values may be quoted.
    var trimmingQuotes: String {
        var s = Substring(self)
        if s.hasPrefix("\""), s.hasSuffix("\""), s.count >= 2 { s = s.dropFirst().dropLast() }
        return String(s)
    }
}
