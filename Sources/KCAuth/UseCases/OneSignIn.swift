import KCAuthCore

/// One sign-in in flight per session, across processes (`SignInLock`): the caller that finds the
/// session's sign-in lock free signs in; a caller that finds it taken waits for that sign-in and
/// then uses the session it stored, or ends as it ended. A waiter never starts a browser of its
/// own, and a waiter that is interrupted leaves the sign-in in progress alone (it only holds
/// the lock for the instant it reads the outcome).
public struct OneSignIn: Sendable {
    public enum Event: Sendable {
        /// Another process signs in to the profile (nil: it has not said who it is yet).
        case waiting(SignInRecord?)
        /// `login --force`: the other sign-in was asked to stop.
        case askedToStop(SignInRecord)
    }

    /// How the call ended.
    public enum Result<T> {
        /// This process signed in.
        case signedIn(T)
        /// Another process signed in, or let go without a word: read the store.
        case signedInElsewhere
        /// `stillNeeded` said no (a session appeared before this caller took the lock).
        case notNeeded
    }

    let lock: any SignInLock
    /// The session the sign-in stores: the profile, and the provider and client it signs in to.
    let session: SecretKey
    var profile: String { session.profile }
    let clock: any TimeSource
    /// How long a waiter waits (the holder's own flow has its deadline too).
    let waitLimit: Double

    init(lock: any SignInLock, session: SecretKey, clock: any TimeSource, waitLimit: Double) {
        self.lock = lock
        self.session = session
        self.clock = clock
        self.waitLimit = waitLimit
    }

    /// `stillNeeded` runs while the lock is ours, before anything is started: another process
    /// may have signed in between this caller's first look and its taking the lock. `force`
    /// asks a sign-in in progress to stop and takes over (`login --force`).
    public func run<T>(force: Bool, notify: (Event) -> Void, stillNeeded: () throws -> Bool, signIn: () throws -> T) throws -> Result<T> {
        var askedOnce = false
        for _ in 0..<3 {
            switch try lock.take(session) {
            case .held(let holding):
                defer { holding.release() }
                guard try stillNeeded() else { return .notNeeded }
                holding.started(at: clock.instant.epochSeconds)
                do {
                    let value = try signIn()
                    holding.finish(.succeeded)
                    return .signedIn(value)
                } catch let error as KCAuthError {
                    holding.finish(.failed(error.code))
                    throw error
                }
            case .busy(let record):
                if force, !askedOnce, let record, lock.askToStop(record) {
                    askedOnce = true
                    notify(.askedToStop(record))
                    _ = try? lock.waitForEnd(session, timeout: 10)
                    continue  // take it now (unless yet another caller was quicker)
                }
                notify(.waiting(record))
                return try ended(lock.waitForEnd(session, timeout: waitLimit))
            }
        }
        throw KCAuthError(.timedOut, "other sign-ins for profile '\(profile)' kept starting; not signing in", remedy: .signIn(profile: profile))
    }

    /// The waiter's end: the outcome the sign-in it waited for recorded.
    func ended<T>(_ record: SignInRecord?) throws -> Result<T> {
        guard let record else { return .signedInElsewhere }  // it let go without signing in: the store decides
        switch record.outcome {
        case .succeeded?:
            return .signedInElsewhere
        case .failed(let code)?:
            throw KCAuthError(code, "the sign-in for profile '\(profile)' in process \(record.pid) failed; not signed in",
                              remedy: .signIn(profile: profile))
        case nil:
            throw KCAuthError(.cancelled, "the sign-in for profile '\(profile)' in process \(record.pid) ended without finishing "
                              + "(interrupted or killed); not signed in", remedy: .signIn(profile: profile))
        }
    }
}
