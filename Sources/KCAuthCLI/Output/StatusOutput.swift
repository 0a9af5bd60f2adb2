import KCAuth
import KCAuthCore

/// What `kcauth status` prints, laid out like `gh auth status`: one block per profile, a mark
/// (✓ usable, X not), the facts, and the command that fixes a broken profile. The JSON schema
/// is documented in README ("kcauth status").
enum StatusOutput {
    /// `selectedBy`: where the selected profile came from (``ProfileOrigin``).
    static func text(_ report: Status.Report, now: Instant, selectedBy: String? = nil) -> String {
        report.entries.map { block($0, now: now, selectedBy: selectedBy) }.joined(separator: "\n")
    }

    static func block(_ e: Status.Entry, now: Instant, selectedBy: String? = nil) -> String {
        var out = e.profile + (e.selected ? " (selected" + (selectedBy.map { " by \($0)" } ?? "") + ")" : "") + "\n"
        let issuer = e.issuer ?? "(no issuer set)"
        let user = e.user.map { " as \(Sanitize.oneLine($0))" } ?? ""
        var facts: [String] = []
        switch e.state {
        case .valid, .refreshable:
            out += "  ✓ Logged in to \(issuer)\(user)\n"
        case .loginRequired(let reason):
            out += "  X Login required for \(issuer): \(Sanitize.oneLine(reason))\n"
        case .storageUnavailable(let error):
            out += "  X Cannot read the stored session: \(Sanitize.oneLine(MessageWords.message(error)))\n"
        }
        if let client = e.clientID { facts.append("Client: \(client)") }
        if e.clientAuth != .none { facts.append("Client auth: \(e.clientAuth.summary)") }
        switch e.state {
        case .valid:
            facts.append("Access token: " + SessionOutput.expiry(e.accessTokenExpiresAt, now: now))
        case .refreshable:
            facts.append("Access token: " + SessionOutput.expiry(e.accessTokenExpiresAt, now: now) + "; refreshed on next use")
            facts.append("Refresh token: " + SessionOutput.expiry(e.refreshTokenExpiresAt, now: now, known: "stored, no expiry given"))
        case .loginRequired, .storageUnavailable:
            break
        }
        if let dpop = e.dpop { facts.append("DPoP: \(dpop.summary)") }
        if let storage = e.storage { facts.append("Storage: \(storage)" + (e.storageState.map { ", " + StoreWords.state($0, now: now) } ?? "")) }
        if let fix = fix(e) { facts.append("To fix: \(fix)") }
        return out + facts.map { "  - \($0)\n" }.joined()
    }

    /// The command (or step) that makes the profile usable again, in the CLI's words.
    static func fix(_ e: Status.Entry) -> String? {
        switch e.fix {
        case .signIn(let needsSettings)?:
            let login = LoginHint.login(profile: e.profile)
            return (needsSettings ? login.withPlaceholder(SettingsOptions.issuer).withPlaceholder(SettingsOptions.clientID) : login).description
        case .storage(let error)?:
            return LoginHint.hint(for: error)
        case nil:
            return nil
        }
    }

    static func json(_ report: Status.Report, now: Instant) -> String {
        JSONValue.fields([
            ("version", .number(SessionOutput.schemaVersion)),
            ("selected_profile", .string(report.selectedProfile)),
            ("profiles", .array(report.entries.map { entry($0, now: now) })),
            ("forwarded", .null),  // the remote side of a forward (ForwardedOutput)
        ]).rendered()
    }

    static func entry(_ e: Status.Entry, now: Instant) -> JSONValue {
        let reason: String?
        switch e.state {
        case .valid, .refreshable: reason = nil
        case .loginRequired(let why): reason = why
        case .storageUnavailable(let error): reason = MessageWords.message(error)
        }
        var fields: [(String, JSONValue)] = [
            ("profile", .string(e.profile)),
            ("selected", .bool(e.selected)),
            ("issuer", .string(e.issuer)),
            ("client_id", .string(e.clientID)),
            ("client_auth", .string(e.clientAuth.methodName)),
            ("client_auth_source", .string(e.clientAuth.sourceDescription)),
            ("user", .string(e.user)),
            ("state", .string(e.state.code)),
            ("usable", .bool(e.state.isUsable)),
            ("reason", .string(reason)),
        ]
        fields += SessionOutput.times("access_token", e.accessTokenExpiresAt, now: now)
        fields += SessionOutput.times("refresh_token", e.refreshTokenExpiresAt, now: now)
        fields += [("storage", .string(e.storage)), ("dpop", e.dpop?.json ?? .null), ("fix", .string(fix(e)))]
        return .fields(fields)
    }
}
