/// The refresh lock with a trace: how long the wait for it took, and whether it came.
public struct TracingProfileLock: ProfileLock {
    let base: any ProfileLock
    let trace: any TraceSink
    let clock: any TimeSource

    public init(_ base: any ProfileLock, trace: any TraceSink, clock: any TimeSource) {
        self.base = base
        self.trace = trace
        self.clock = clock
    }

    public func withLock<T>(_ session: SecretKey, timeout: Double, _ body: () throws -> T) throws -> T {
        let start = clock.now()
        let profile = session.profile
        var acquired = false
        do {
            return try base.withLock(session, timeout: timeout) {
                acquired = true
                trace.record(TraceEvent("lock.acquired", ("lock", .text("refresh")), ("profile", .text(profile)),
                                        ("waited_ms", .milliseconds(clock.now() - start))))
                return try body()
            }
        } catch {
            if !acquired {
                trace.record(TraceEvent("lock.failed", ("lock", .text("refresh")), ("profile", .text(profile)),
                                        ("waited_ms", .milliseconds(clock.now() - start)),
                                        ("error", .text(KCAuthError.wrapping(error).message))))
            }
            throw error
        }
    }
}

/// The sign-in lock with a trace: whether this process took it or found it held (by whom), and
/// how long a wait for the holder took.
public struct TracingSignInLock: SignInLock {
    let base: any SignInLock
    let trace: any TraceSink
    let clock: any TimeSource

    public init(_ base: any SignInLock, trace: any TraceSink, clock: any TimeSource) {
        self.base = base
        self.trace = trace
        self.clock = clock
    }

    public func take(_ session: SecretKey) throws -> SignInAttempt {
        let profile = session.profile
        let attempt = try base.take(session)
        switch attempt {
        case .held:
            trace.record(TraceEvent("signin-lock.taken", ("profile", .text(profile))))
        case .busy(let record):
            trace.record(TraceEvent("signin-lock.busy", ("profile", .text(profile)), ("holder", record.map { .int(Int($0.pid)) } ?? .text("unknown"))))
        }
        return attempt
    }

    public func waitForEnd(_ session: SecretKey, timeout: Double) throws -> SignInRecord? {
        try trace.timed(clock, { try base.waitForEnd(session, timeout: timeout) }) { result in
            var fields = [TraceField("profile", .text(session.profile))]
            switch result {
            case .success(let record?): fields.append(TraceField("ended", .text(record.outcome.map(Self.words) ?? "holder gone")))
            case .success(nil): fields.append(TraceField("ended", .text("no record")))
            case .failure(let error): fields.append(TraceField("error", .text(KCAuthError.wrapping(error).message)))
            }
            return TraceEvent("signin-lock.waited", fields)
        }
    }

    public func askToStop(_ record: SignInRecord) -> Bool {
        let asked = base.askToStop(record)
        trace.record(TraceEvent("signin-lock.ask-to-stop", ("holder", .int(Int(record.pid))), ("asked", .flag(asked))))
        return asked
    }

    static func words(_ outcome: SignInRecord.Outcome) -> String {
        switch outcome {
        case .succeeded: "ok"
        case .failed(let code): code.rawValue
        }
    }
}
