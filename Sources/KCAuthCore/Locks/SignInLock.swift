/// One sign-in in flight per session, across processes.
///
/// Six kubectl calls that find no session at once must not open six browsers: the first takes
/// the session's sign-in lock and signs in; the others see it taken, wait for it, and use the
/// session it stored. The lock says who holds it (`SignInRecord`) so a waiter can tell the
/// person which process it waits for, and how that sign-in ended. It is the lock of the session
/// the sign-in will store (its store, the adapter's, and its ``SecretKey``): a sign-in to the
/// same profile name with another provider or client (another configuration) is not waited for.
public protocol SignInLock: Sendable {
    /// Takes the session's sign-in lock without waiting: held (release it, or `finish`), or the
    /// record of the process that holds it.
    func take(_ session: SecretKey) throws -> SignInAttempt
    /// Waits, at most `timeout` seconds, until the holder lets go (or dies); returns the record
    /// it left, read while the lock was briefly ours (then released again).
    func waitForEnd(_ session: SecretKey, timeout: Double) throws -> SignInRecord?
    /// Asks the holder to stop (a forced login): only a live process of this user. False when
    /// there is none to ask.
    func askToStop(_ record: SignInRecord) -> Bool
}
