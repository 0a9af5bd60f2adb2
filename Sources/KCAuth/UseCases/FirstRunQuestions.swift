import KCAuthCore

/// `login` for a profile that names no provider or no client yet (first run): when
/// someone can answer, it asks — a Keycloak server URL and realm, or an issuer URL, checked by
/// fetching the discovery document before going on — and the login then saves the answers in
/// the profile. When nobody can answer, the usage error names what is missing
/// (`.loginWithSettings`: the CLI says the complete command).
struct FirstRunQuestions {
    /// A person gets this many tries at each question before kcauth gives up.
    static let attempts = 5

    let context: KCAuthContext
    let flags: SettingsFlags
    /// Someone reads the questions (`Login.Options.canAsk`).
    let canAsk: Bool

    func complete(_ profile: ResolvedProfile, notify: (Login.Event) -> Void) throws -> ResolvedProfile {
        guard profile.issuer == nil || profile.clientID == nil else { return profile }
        let terminal = context.adapters.terminal
        guard terminal.isInteractive, canAsk else { throw Self.missing(profile) }
        notify(.firstRun(missingIssuer: profile.issuer == nil))
        var flags = flags
        if profile.issuer == nil {
            let issuer = try askIssuer(profile, terminal: terminal, notify: notify)
            (flags.issuer, flags.server, flags.realm) = (issuer, nil, nil)
        }
        if profile.clientID == nil {
            flags.clientID = try ask(.clientID, terminal: terminal, notify: notify) { answer in
                try InputText.check(answer, from: "the client id")
                return answer
            }
        }
        return try context.resolve(flags)
    }

    /// The usage error for a login nobody can be asked about.
    static func missing(_ profile: ResolvedProfile) -> KCAuthError {
        let what = profile.issuer == nil ? "no issuer" : "no client id"
        return KCAuthError(.usage, "\(what) for profile '\(profile.name)', and no terminal to ask on",
                           remedy: .loginWithSettings(profile: profile.name, issuer: profile.issuer == nil, clientID: profile.clientID == nil))
    }

    /// A Keycloak server URL (then the realm) or an issuer URL, accepted once its discovery
    /// document is fetched and checked (OpenID Connect Discovery §4).
    private func askIssuer(_ profile: ResolvedProfile, terminal: any TerminalInput, notify: (Login.Event) -> Void) throws -> String {
        let http = context.http(caFile: profile.caFile?.value)
        return try ask(.issuer, terminal: terminal, notify: notify) { answer in
            var issuer = try IssuerPolicy.normalizedIssuer(answer)
            if !issuer.contains("/realms/"), (try? Discovery(http: http).fetch(issuer: issuer)) == nil {
                // Not an issuer itself: a Keycloak server, whose issuers are SERVER/realms/REALM.
                notify(.question(.realm))
                guard let realm = terminal.readLine().map(Self.trimmed) else { throw Self.cancelled() }
                guard !realm.isEmpty, !realm.contains("/") else {
                    throw KCAuthError(.usage, "'\(Sanitize.oneLine(realm))' is not a realm name")
                }
                issuer += "/realms/" + FormEncoding.escape(realm)
            }
            let metadata = try Discovery(http: http).fetch(issuer: issuer)
            notify(.providerFound(issuer: metadata.issuer))
            return metadata.issuer
        }
    }

    /// Asks until `accept` takes the answer (its error is said, and the question asked again).
    private func ask(_ question: Login.Question, terminal: any TerminalInput, notify: (Login.Event) -> Void,
                     accept: (String) throws -> String) throws -> String {
        for _ in 0..<Self.attempts {
            notify(.question(question))
            guard let line = terminal.readLine() else { throw Self.cancelled() }
            let answer = Self.trimmed(line)
            if answer.isEmpty { continue }
            do {
                return try accept(answer)
            } catch let error as KCAuthError where error.code == .cancelled {
                throw error
            } catch let error as KCAuthError {
                notify(.answerNotTaken(error))
            }
        }
        throw KCAuthError(.usage, "no usable answer after \(Self.attempts) tries", remedy: .passSettings)
    }

    private static func trimmed(_ s: String) -> String {
        String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func cancelled() -> KCAuthError {
        KCAuthError(.cancelled, "no answer (end of input); nothing was saved")
    }
}
