import KCAuthCore

/// A sign-in lock that is always free: for adapters that share nothing with other processes
/// (tests over fakes, a program that builds its own). `Adapters.system` uses the file lock.
public struct UnsharedSignIn: SignInLock {
    public init() {}
    public func take(_ session: SecretKey) throws -> SignInAttempt { .held(Holding()) }
    public func waitForEnd(_ session: SecretKey, timeout: Double) throws -> SignInRecord? { nil }
    public func askToStop(_ record: SignInRecord) -> Bool { false }

    final class Holding: SignInHolding {
        func started(at epochSeconds: Double) {}
        func finish(_ outcome: SignInRecord.Outcome) {}
        func release() {}
    }
}
