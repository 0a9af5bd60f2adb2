/// kcauth's answer to git's `get`: the access token as the password of a fixed user name (what
/// Git servers that take OAuth tokens expect, e.g. `oauth2`), or — when git announced
/// `capability[]=authtype` (git ≥ 2.46) — as a ready `Authorization: Bearer` credential.
public struct GitCredentialAnswer: Sendable, Equatable {
    public var username: String
    public var token: String
    public var expiresAt: Instant?
    public var bearer: Bool

    public init(username: String, token: String, expiresAt: Instant?, bearer: Bool) {
        self.username = username
        self.token = token
        self.expiresAt = expiresAt
        self.bearer = bearer
    }

    public var text: String {
        var lines: [String]
        if bearer {
            // `ephemeral`: the token is short-lived; no other helper should store it.
            lines = ["capability[]=authtype", "authtype=Bearer", "credential=\(token)", "ephemeral=1"]
        } else {
            lines = ["username=\(username)", "password=\(token)"]
        }
        // git ≥ 2.41 drops the credential after this instant instead of sending a stale one;
        // older versions ignore the key.
        if let expiresAt { lines.append("password_expiry_utc=\(Int(expiresAt.epochSeconds))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every value goes on one protocol line: a newline (or NUL) in it would forge more keys.
    public static func isLineSafe(_ value: String) -> Bool {
        !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }
}
