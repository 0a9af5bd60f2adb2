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
