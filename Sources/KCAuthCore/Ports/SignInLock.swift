/// One sign-in in flight per profile, across processes (issue 18 #1).
///
/// Six kubectl calls that find no session at once must not open six browsers: the first takes
/// the profile's sign-in lock and signs in; the others see it taken, wait for it, and use the
/// session it stored. The lock says who holds it (`SignInRecord`) so a waiter can tell the
/// person which process it waits for, and how that sign-in ended.
public protocol SignInLock: Sendable {
    /// Takes the profile's sign-in lock without waiting: held (release it, or `finish`), or the
    /// record of the process that holds it.
    func take(profile: String) throws -> SignInAttempt
    /// Waits, at most `timeout` seconds, until the holder lets go (or dies); returns the record
    /// it left, read while the lock was briefly ours (then released again).
    func waitForEnd(profile: String, timeout: Double) throws -> SignInRecord?
    /// Asks the holder to stop (`login --force`): only a live process of this user. False when
    /// there is none to ask.
    func askToStop(_ record: SignInRecord) -> Bool
}

public enum SignInAttempt {
    case held(any SignInHolding)
    case busy(SignInRecord?)
}

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

/// What the lock file says: who signs in since when, and, once over, how it ended.
public struct SignInRecord: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case succeeded
        case failed(KCAuthError.Code)
    }

    public var pid: Int32
    /// Seconds since the epoch.
    public var startedAt: Double
    /// nil while running (or when the holder died before saying).
    public var outcome: Outcome?

    public init(pid: Int32, startedAt: Double, outcome: Outcome? = nil) {
        self.pid = pid
        self.startedAt = startedAt
        self.outcome = outcome
    }

    /// `running PID STARTED` or `ended PID STARTED ok|CODE`: one line, no secrets.
    public var encoded: String {
        let head = "\(pid) \(Int64(startedAt))"
        switch outcome {
        case nil: return "running " + head + "\n"
        case .succeeded?: return "ended " + head + " ok\n"
        case .failed(let code)?: return "ended " + head + " " + code.rawValue + "\n"
        }
    }

    public init?(_ text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard words.count >= 3, let pid = Int32(words[1]), pid > 0, let started = Int64(words[2]) else { return nil }
        self.pid = pid
        startedAt = Double(started)
        switch (words[0], words.count) {
        case ("running", 3): outcome = nil
        case ("ended", 4):
            let code = KCAuthError.Code(rawValue: words[3])
            outcome = words[3] == "ok" ? .succeeded : KCAuthError.Code.known.contains(code) ? .failed(code) : .failed(.internal)
        default: return nil
        }
    }
}
