/// One browser sign-in's wait as the loopback listener drives it: its `tick` and `judge`
/// callbacks feed the state machine (``LoopbackWait``) the lines pasted at the terminal and the
/// redirects, and do what each step asks (tell the person, redeem the code). The wait's state
/// lives here, in one place, not in variables the callbacks capture.
///
/// Driven by the listener on its thread; not shared.
final class LoopbackWaiter {
    typealias Notify = (FlowDriver.Event) -> Void
    typealias Redeem = (Secret) -> Result<FlowDriver.Output, KCAuthError>

    private var machine: LoopbackWait<FlowDriver.Output>
    private let listener: any BoundRedirectListener
    private let browser: BrowserWait
    private let clock: any Sleeper
    private let profile: String
    /// The connections the listener refused, for the timeout's hint (`ExactRedirectHint`).
    private(set) var refused: [RefusedConnection] = []
    /// Where a pasted answer is traced (`--debug`), its values redacted.
    private let trace: any TraceSink

    init(judge: CallbackJudge, listener: any BoundRedirectListener, browser: BrowserWait, clock: any Sleeper, profile: String,
         trace: any TraceSink = NoTrace()) {
        self.trace = trace
        machine = LoopbackWait(judge: judge)
        self.listener = listener
        self.browser = browser
        self.clock = clock
        self.profile = profile
    }

    /// The listener's tick: refused connections are said at once, then the browser's side
    /// (countdown, launcher) runs and the pasted lines are tried. A pasted answer that finishes
    /// the wait ends it.
    func tick(notify: Notify, redeem: Redeem) throws -> CallbackRequest? {
        for connection in listener.takeRefusedConnections() {
            refused.append(connection)
            notify(.connectionRefused(connection))
        }
        for line in try browser.tick(now: clock.monotonicNow(), notify: notify) where !line.trimmingWhitespace().isEmpty {
            switch PastedRedirect.parse(line, redirectURI: listener.redirectURI) {
            case .failure(let problem):
                trace.emit(TraceEvent("paste.rejected", ("problem", .text(String(describing: problem)))))
                notify(.pasteRejected(reason: problem.reason))
            case .success(let callback):
                trace.emit(TraceEvent("paste.received", ("query", TracedQuery.value(parameters: callback.parameters))))
                advance(.pasted(callback, browserBound: listener.browserBound), notify: notify, redeem: redeem)
                if machine.isFinished { return callback }
            }
        }
        return nil
    }

    /// The listener's judge of a redirect: the page the browser gets.
    func judge(_ callback: CallbackRequest, notify: Notify, redeem: Redeem) -> CallbackVerdict {
        advance(.redirected(callback), notify: notify, redeem: redeem)
        return Self.verdict(machine.state, profile: profile)
    }

    /// The session, or why not, once the listener returned.
    func result() throws -> FlowDriver.Output {
        guard case .finished(let result) = machine.state else {
            throw KCAuthError(.internal, "the loopback listener stopped without a result")
        }
        return try result.get()
    }

    private func advance(_ event: LoopbackWait<FlowDriver.Output>.Event, notify: Notify, redeem: Redeem) {
        switch machine.handle(event) {
        case .nothing: break
        case .refusePaste(let reason): notify(.pasteRejected(reason: reason))
        case .redeem(let code): _ = machine.handle(.redeemed(redeem(code)))
        }
    }

    /// The browser's page after a redirect moved the wait to `state`.
    static func verdict(_ state: LoopbackWait<FlowDriver.Output>.State, profile: String) -> CallbackVerdict {
        switch state {
        case .finished(.success(let output)):
            return .finish(.signedIn(user: output.claims.displayName(userinfo: output.state.userinfo), profile: profile))
        case .finished(.failure(let error)):
            return .finish(.signInFailed(error))
        case .waiting, .pasted, .redirected:
            return .keepWaiting(.notThisSignIn)
        }
    }
}
