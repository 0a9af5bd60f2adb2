/// The wait of a browser sign-in (`LoopbackFlow`) as a small state machine: the answer comes
/// back as the browser's redirect to the loopback listener, or pasted at the terminal when the
/// browser is on another machine; whichever comes first wins.
///
///     waiting ──redirect with our code──▶ redirected ──redeemed──▶ finished
///        │    ──pasted with our code────▶ pasted     ──redeemed──▶ finished
///        └────an error from the provider, or a wrong issuer──────▶ finished
///
/// Anything else (another login's `state`, a line that is no address, a paste while the bound
/// browser signs in) leaves it waiting. `transition` is pure: the flow does what each step asks
/// (`Action`) and reports back (`.redeemed`). Generic over what a redeemed code gives, so the
/// machine is tested on its own.
struct LoopbackWait<Output> {
    enum State {
        /// No usable answer yet.
        case waiting
        /// A pasted answer carried this login's code: it is being redeemed.
        case pasted(code: Secret)
        /// The browser's redirect carried this login's code: it is being redeemed.
        case redirected(code: Secret)
        /// Over: the session, or why not.
        case finished(Result<Output, KCAuthError>)
    }

    enum Event {
        /// An answer parsed from a line pasted at the terminal; `browserBound`: the browser this
        /// login started is signing in (`BrowserBinding`), so only it may answer.
        case pasted(CallbackRequest, browserBound: Bool)
        /// A request to the redirect URI.
        case redirected(CallbackRequest)
        /// The code was redeemed, or not.
        case redeemed(Result<Output, KCAuthError>)
    }

    /// What the flow does on a transition.
    enum Action: Equatable {
        case nothing
        /// Tell the person why the pasted answer was not taken.
        case refusePaste(reason: String)
        /// Redeem the code, then report `.redeemed`.
        case redeem(code: Secret)
    }

    static var boundBrowserSignsIn: String { "the browser kcauth started on this machine is signing in; finish there" }
    static var notThisLogin: String { "that address belongs to another sign-in (its state is not this login's)" }

    let judge: CallbackJudge
    private(set) var state: State = .waiting

    init(judge: CallbackJudge) {
        self.judge = judge
    }

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    mutating func handle(_ event: Event) -> Action {
        let (next, action) = Self.transition(from: state, on: event, judge: judge)
        state = next
        return action
    }

    static func transition(from state: State, on event: Event, judge: CallbackJudge) -> (State, Action) {
        switch (state, event) {
        case (.waiting, .pasted(let callback, let browserBound)):
            // The bound browser reached the provider through this machine's listener, so its
            // answer comes there by itself; a pasted one is refused like a callback without the
            // cookie (`BrowserBinding`), whoever pasted it.
            if browserBound { return (.waiting, .refusePaste(reason: boundBrowserSignsIn)) }
            switch judge.judge(callback) {
            case .notOurs: return (.waiting, .refusePaste(reason: notThisLogin))
            case .failed(let error): return (.finished(.failure(error)), .nothing)
            case .code(let code): return (.pasted(code: code), .redeem(code: code))
            }
        case (.waiting, .redirected(let callback)):
            switch judge.judge(callback) {
            case .notOurs: return (.waiting, .nothing)
            case .failed(let error): return (.finished(.failure(error)), .nothing)
            case .code(let code): return (.redirected(code: code), .redeem(code: code))
            }
        case (.pasted, .redeemed(let result)), (.redirected, .redeemed(let result)):
            return (.finished(result), .nothing)
        default:
            // Nothing moves a finished wait, and nothing but the redemption one being redeemed.
            return (state, .nothing)
        }
    }
}
