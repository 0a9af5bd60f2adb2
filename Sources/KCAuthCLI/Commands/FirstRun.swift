import KCAuth
import KCAuthCore

/// `kcauth login` for a profile that names no provider or no client yet (issue 11 item 7): on a
/// terminal it asks — a Keycloak server URL and realm, or an issuer URL, checked by fetching
/// the discovery document before going on — and the login then saves the answers in the
/// profile. Not on a terminal, it says the complete command to run (exit 2).
enum FirstRun {
    /// A person gets this many tries at each question before kcauth gives up.
    static let attempts = 5

    static func complete(_ profile: ResolvedProfile, flags: SettingsFlags, _ services: Services) throws -> ResolvedProfile {
        guard profile.issuer == nil || profile.clientID == nil else { return profile }
        let terminal = services.context.adapters.terminal
        guard terminal.isInteractive, services.console.stderrIsTTY else { throw missing(profile) }
        let console = services.console
        console.err("Profile '\(profile.name)' has no \(profile.issuer == nil ? "provider" : "client id") yet; "
                    + "kcauth asks once and saves the answers with the sign-in (Ctrl-C to stop).\n")
        var flags = flags
        if profile.issuer == nil {
            let issuer = try askIssuer(profile, services: services, terminal: terminal)
            (flags.issuer, flags.server, flags.realm) = (issuer, nil, nil)
        }
        if profile.clientID == nil {
            flags.clientID = try ask("Client id (of the public client registered for command-line sign-in): ",
                                     terminal: terminal, console: console) { answer in
                try InputText.check(answer, from: "the client id")
                return answer
            }
        }
        return try services.context.resolve(flags)
    }

    /// The usage error with the complete command, for a login nobody can be asked about.
    static func missing(_ profile: ResolvedProfile) -> KCAuthError {
        var command = LoginHint.login(profile: profile.name)
        if profile.issuer == nil { command += " --issuer https://sso.example.com/realms/REALM" }
        if profile.clientID == nil { command += " --client-id CLIENT" }
        let what = profile.issuer == nil ? "no issuer" : "no client id"
        return KCAuthError(.usage, "\(what) for profile '\(profile.name)', and no terminal to ask on",
                           hint: "run `\(command)`" + (profile.issuer == nil ? " (or --server URL --realm NAME instead of --issuer)" : ""))
    }

    /// A Keycloak server URL (then the realm) or an issuer URL, accepted once its discovery
    /// document is fetched and checked (OpenID Connect Discovery §4).
    private static func askIssuer(_ profile: ResolvedProfile, services: Services, terminal: any TerminalInput) throws -> String {
        let console = services.console
        let http = services.context.http(caFile: profile.caFile?.value)
        return try ask("Keycloak server URL (https://sso.example.com) or issuer URL: ", terminal: terminal, console: console) { answer in
            var issuer = try IssuerPolicy.normalizedIssuer(answer)
            if !issuer.contains("/realms/"), (try? Discovery(http: http).fetch(issuer: issuer)) == nil {
                // Not an issuer itself: a Keycloak server, whose issuers are SERVER/realms/REALM.
                console.err("Realm: ")
                guard let realm = terminal.readLine().map(trimmed) else { throw cancelled() }
                guard !realm.isEmpty, !realm.contains("/") else {
                    throw KCAuthError(.usage, "'\(Sanitize.oneLine(realm))' is not a realm name")
                }
                issuer += "/realms/" + FormEncoding.escape(realm)
            }
            let metadata = try Discovery(http: http).fetch(issuer: issuer)
            console.err("Found the provider: \(metadata.issuer)\n")
            return metadata.issuer
        }
    }

    /// Asks until `accept` takes the answer (its error is said, and the question asked again).
    private static func ask(_ question: String, terminal: any TerminalInput, console: any Console,
                            accept: (String) throws -> String) throws -> String {
        for _ in 0..<attempts {
            console.err(question)
            guard let line = terminal.readLine() else { throw cancelled() }
            let answer = trimmed(line)
            if answer.isEmpty { continue }
            do {
                return try accept(answer)
            } catch let error as KCAuthError where error.code == .cancelled {
                throw error
            } catch let error as KCAuthError {
                console.err("That did not work: \(Sanitize.oneLine(error.message))" + (LoginHint.hint(for: error).map { "; \($0)" } ?? "") + "\n")
            }
        }
        throw KCAuthError(.usage, "no usable answer after \(attempts) tries", hint: "pass the settings as flags: `kcauth login --help`")
    }

    private static func trimmed(_ s: String) -> String {
        String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func cancelled() -> KCAuthError {
        KCAuthError(.cancelled, "no answer (end of input); nothing was saved")
    }
}
