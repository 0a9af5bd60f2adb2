/// Serialises token refreshes of one profile across processes.
///
/// Keycloak (with rotation) and other providers answer the second of two concurrent refreshes
/// with the same refresh token by ending the whole client session, so two `kcauth token`
/// processes must never refresh at once (see README, "Concurrency").
public protocol ProfileLock: Sendable {
    /// Runs `body` while holding the profile's exclusive lock. Waits at most `timeout` seconds
    /// for the lock (then throws `timedOut`). The lock is released when `body` returns or throws,
    /// and by the kernel if the process dies.
    func withLock<T>(profile: String, timeout: Double, _ body: () throws -> T) throws -> T
}
