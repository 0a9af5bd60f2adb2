/// Serialises the token refreshes of one stored session across processes.
///
/// Keycloak (with rotation) and other providers answer the second of two concurrent refreshes
/// with the same refresh token by ending the whole client session, so two `kcauth token`
/// processes must never refresh at once (docs/commands.md, "Concurrency"). The lock is the
/// session's (its store, the adapter's, and its ``SecretKey``: profile, issuer, client id), named
/// after what the store holds, so every process that reads the same stored session takes the
/// same lock whatever its settings say, and a profile of the same name in another configuration
/// (another provider) never waits for this one.
public protocol ProfileLock: Sendable {
    /// Runs `body` while holding the session's exclusive lock. Waits at most `timeout` seconds
    /// for the lock (then throws `timedOut`). The lock is released when `body` returns or throws,
    /// and by the kernel if the process dies.
    func withLock<T>(_ session: SecretKey, timeout: Double, _ body: () throws -> T) throws -> T
}
