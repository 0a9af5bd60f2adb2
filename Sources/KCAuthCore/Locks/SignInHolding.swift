/// The sign-in lock while this process holds it. Released when dropped, and by the kernel when
/// the process dies.
public protocol SignInHolding: AnyObject {
    /// Says that this process signs in now, started at `epochSeconds` (before the browser opens).
    func started(at epochSeconds: Double)
    /// Says how the sign-in ended, and lets go.
    func finish(_ outcome: SignInRecord.Outcome)
    /// Lets go without a word (no sign-in was needed after all).
    func release()
}
