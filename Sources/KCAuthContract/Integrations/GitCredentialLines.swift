/// kcauth's answer to git's `get` (git-credential(1), "INPUT/OUTPUT FORMAT"), the same bytes from
/// both programs: the access token as the password of a user name (what Git servers that take
/// OAuth tokens expect, e.g. `oauth2`), or — when git announced `capability[]=authtype` (git ≥
/// 2.46) — as a ready `Authorization: Bearer` credential.
public enum GitCredentialLines {
    /// The answer's lines, each ending in a newline. `expiresAt`: seconds since the epoch.
    public static func answer(username: String, token: String, expiresAt: Int64?, bearer: Bool) -> String {
        var out = ""
        if bearer {
            // `ephemeral`: the token is short-lived; no other helper should store it.
            out += "capability[]=authtype\n"
            out += "authtype=Bearer\n"
            out += "credential=" + token + "\n"
            out += "ephemeral=1\n"
        } else {
            out += "username=" + username + "\n"
            out += "password=" + token + "\n"
        }
        // git ≥ 2.41 drops the credential after this instant instead of sending a stale one;
        // older versions ignore the key. Lines appended one by one: `joined(separator:)` runs
        // unspecialised in the standard library, whose associated-type lookup scans every
        // protocol conformance record of the front (docs/performance.md §4).
        if let expiresAt { out += "password_expiry_utc=" + Timestamp.decimal(expiresAt) + "\n" }
        return out
    }

    /// Every value goes on one protocol line: a newline (or NUL) in it would forge more keys.
    public static func isLineSafe(_ value: String) -> Bool {
        !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }
}
