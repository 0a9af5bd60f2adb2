import KCAuth
import KCAuthCore

/// What `kcauth whoami` prints. The JSON schema is documented in README ("kcauth whoami").
enum WhoAmIOutput {
    /// `selectedBy`: where the profile came from (``ProfileOrigin``); `assertion`: a fresh
    /// platform assertion of the client, described.
    static func text(_ i: WhoAmI.Identity, now: Instant, clientAuth: ClientAuthenticationSetting = .none, selectedBy: String? = nil,
                     assertion: AssertionPreview? = nil) -> String {
        var rows: [(String, String)] = [
            ("Profile", i.profile + (selectedBy.map { " (selected by \($0))" } ?? "")),
            ("Issuer", i.issuer),
            ("Client", i.clientID),
            ("Client auth", clientAuth.summary),
        ]
        if let assertion { rows += AssertionPreviewOutput.rows(assertion, now: now) }
        rows += identityRows(i)
        rows += [
            ("Scopes", i.scopes.joined(separator: " ")),
            ("Access token", SessionOutput.expiry(i.accessTokenExpiresAt, now: now)
                + (i.health == .refreshable ? "; refreshed on next use" : "")),
            ("Refresh token", i.hasRefreshToken ? SessionOutput.expiry(i.refreshTokenExpiresAt, now: now, known: "stored, no expiry given") : "none"),
            ("State", stateText(i.health)),
            ("Storage", i.storage),
        ]
        if let dpop = i.dpop { rows.append(("DPoP", dpop.summary)) }
        if let userinfo = i.userinfo {
            rows.append(("Userinfo", "the provider confirms the session"))
            for member in userinfo.members ?? [] {
                rows.append(("  " + member.key, SessionOutput.claimText(member.value)))
            }
        }
        return SessionOutput.lines(rows.map { ($0.0, Sanitize.oneLine($0.1, limit: 2000)) })
    }

    static func json(_ i: WhoAmI.Identity, now: Instant, clientAuth: ClientAuthenticationSetting = .none,
                     assertion: AssertionPreview? = nil) -> String {
        var fields: [(String, JSONValue)] = [
            ("version", .number(SessionOutput.schemaVersion)),
            ("profile", .string(i.profile)),
            ("issuer", .string(i.issuer)),
            ("client_id", .string(i.clientID)),
            ("client_auth", .string(clientAuth.methodName)),
            ("client_auth_source", .string(clientAuth.sourceDescription)),
            ("client_assertion", assertion.map { AssertionPreviewOutput.json($0, now: now) } ?? .null),
        ] + identityFields(i) + [
            ("state", .string(i.health.code)),
        ]
        fields += SessionOutput.times("access_token", i.accessTokenExpiresAt, now: now)
        fields.append(("has_refresh_token", .bool(i.hasRefreshToken)))
        fields += SessionOutput.times("refresh_token", i.refreshTokenExpiresAt, now: now)
        fields += [("storage", .string(i.storage)), ("dpop", i.dpop?.json ?? .null), ("userinfo", i.userinfo ?? .null)]
        return JSONValue.fields(fields).rendered()
    }

    static func stateText(_ health: SessionHealth) -> String {
        switch health {
        case .valid: return "valid"
        case .refreshable: return "access token expired, refreshable"
        case .loginRequired(let reason): return "login required: \(reason)"
        }
    }

    private static func show(_ s: String?) -> String { s ?? "-" }

    /// The JSON members of ``identityRows(_:)``, for `whoami -o json` here and on the remote side
    /// of a forward alike.
    static func identityFields(_ i: WhoAmI.Identity) -> [(String, JSONValue)] {
        let c = i.claims
        return [
            ("subject", .string(c?.subject)),
            ("preferred_username", .string(c?.preferredUsername)),
            ("name", .string(c?.name)),
            ("email", .string(c?.email)),
            ("realm_roles", .strings(i.realmRoles)),
            ("client_roles", .fields(i.clientRoles.map { ($0.client, .strings($0.roles)) })),
            ("roles_source", .string(i.rolesSource)),
            ("scopes", .strings(i.scopes)),
        ]
    }

    /// Who the token is for and what it may do: the rows `whoami` shows here and on the remote
    /// side of a forward alike.
    static func identityRows(_ i: WhoAmI.Identity) -> [(String, String)] {
        let c = i.claims
        var rows: [(String, String)] = [
            ("Subject", show(c?.subject)),
            ("Username", show(c?.preferredUsername)),
            ("Name", show(c?.name)),
            ("Email", show(c?.email)),
            ("Realm roles", i.realmRoles.isEmpty ? "-" : i.realmRoles.joined(separator: ", ")),
        ]
        if i.clientRoles.isEmpty {
            rows.append(("Client roles", "-"))
        } else {
            for (n, r) in i.clientRoles.enumerated() {
                rows.append((n == 0 ? "Client roles" : "", "\(r.client): \(r.roles.joined(separator: ", "))"))
            }
        }
        return rows
    }
}
