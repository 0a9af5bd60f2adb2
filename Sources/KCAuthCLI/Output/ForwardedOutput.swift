import KCAuth
import KCAuthContract
import KCAuthCore

/// What `status` and `whoami` print on the remote side of a forward: the forward as the laptop
/// describes it (docs/json.md: "kcauth status -o json: forwarded", "kcauth whoami -o json in a
/// forwarded session").
enum ForwardedOutput {
    /// The first line: where the tokens come from.
    static func origin(_ forward: ForwardDescription) -> String {
        forward.destination == ForwardAgent.destination
            ? "the laptop's `kcauth forward-agent`, over plain ssh"
            : "the laptop's `kcauth ssh \(Sanitize.oneLine(forward.destination, limit: 200))`"
    }

    static func scope(_ forward: ForwardDescription) -> String {
        forward.scope.map { "\(Sanitize.oneLine($0, limit: 500)) (narrower than the laptop's session)" } ?? "the laptop's session's own"
    }

    static func profiles(_ forward: ForwardDescription, selected: String) -> String {
        forward.profiles.map { $0 == selected ? "\($0) (selected)" : $0 }.joined(separator: ", ")
    }

    static func statusText(_ forward: ForwardDescription, socket: String, selected: String) -> String {
        "Forwarded session: tokens come from \(origin(forward)); nothing is stored on this host\n"
            + (forward.profiles.contains(selected)
               ? "  ✓ Profiles lent: \(profiles(forward, selected: selected))\n"
               : "  X Profile '\(Sanitize.oneLine(selected, limit: 80))' is not lent to this host (lent: \(forward.profiles.joined(separator: ", ")))\n")
            + "  - Scope: \(scope(forward))\n"
            + "  - Socket: \(socket) (\(ForwardRule.variable))\n"
    }

    static func forwardJSON(_ forward: ForwardDescription, socket: String) -> JSONValue {
        JSONValue.fields([("destination", .string(forward.destination)), ("profiles", .strings(forward.profiles)),
                          ("scope", .string(forward.scope)), ("socket", .string(socket))])
    }

    /// As `status -o json` prints it here: no profile of this host is used.
    static func statusJSON(_ forward: ForwardDescription, socket: String, selected: String) -> String {
        JSONValue.fields([
            ("version", .number(SessionOutput.schemaVersion)),
            ("selected_profile", .string(selected)),
            ("profiles", .array([])),
            ("forwarded", forwardJSON(forward, socket: socket)),
        ]).rendered()
    }

    static func whoamiText(_ f: ForwardedIdentity, socket: String, now: Instant) -> String {
        let i = f.identity
        let c = i.claims
        var rows: [(String, String)] = [
            ("Profile", i.profile + " (lent by the laptop)"),
            ("Forwarded by", origin(f.forward)),
            ("Profiles lent", f.forward.profiles.joined(separator: ", ")),
            ("Scope lent", scope(f.forward)),
            ("Issuer", i.issuer),
            ("Client", i.clientID),
        ]
        rows += WhoAmIOutput.identityRows(i)
        rows += [
            ("Scopes", i.scopes.joined(separator: " ")),
            ("Access token", SessionOutput.expiry(i.accessTokenExpiresAt, now: now)),
            ("Identity", c == nil ? "the access token is not a JWT: ask on the laptop (kcauth whoami)" : "from the access token lent"),
            ("Storage", "nothing on this host; the session stays on the laptop"),
            ("Socket", socket),
        ]
        return SessionOutput.lines(rows.map { ($0.0, Sanitize.oneLine($0.1, limit: 2000)) })
    }

    static func whoamiJSON(_ f: ForwardedIdentity, socket: String, now: Instant) -> String {
        let i = f.identity
        var fields: [(String, JSONValue)] = [
            ("version", .number(SessionOutput.schemaVersion)),
            ("profile", .string(i.profile)),
            ("issuer", .string(i.issuer)),
            ("client_id", .string(i.clientID)),
        ] + WhoAmIOutput.identityFields(i)
        fields += SessionOutput.times("access_token", i.accessTokenExpiresAt, now: now)
        fields += [("storage", .string(i.storage)), ("forwarded", forwardJSON(f.forward, socket: socket))]
        return JSONValue.fields(fields).rendered()
    }
}
