import KCAuthContract

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

    /// The answer's lines, as both programs write them (``GitCredentialLines``).
    public var text: String {
        GitCredentialLines.answer(username: username, token: token, expiresAt: expiresAt.map { Int64($0.epochSeconds) }, bearer: bearer)
    }

    /// Every value goes on one protocol line: a newline (or NUL) in it would forge more keys.
    public static func isLineSafe(_ value: String) -> Bool { GitCredentialLines.isLineSafe(value) }
}
