import Testing
@testable import KCAuthCore

/// The browser sign-in's wait as a state machine (`LoopbackWait`), on its own: what each answer
/// does in each state, with a string for what a redeemed code gives.
@Suite struct LoopbackWaitTests {
    typealias Wait = LoopbackWait<String>
    let judge = CallbackJudge(expectedState: "s-1", issuer: "https://op.example", issRequired: false)

    func answer(_ parameters: [String: String]) -> CallbackRequest { CallbackRequest(parameters: parameters) }

    func describe(_ state: Wait.State) -> String {
        switch state {
        case .waiting: return "waiting"
        case .pasted(let code): return "pasted \(code.reveal())"
        case .redirected(let code): return "redirected \(code.reveal())"
        case .finished(.success(let output)): return "finished \(output)"
        case .finished(.failure(let error)): return "failed \(error.code)"
        }
    }

    func step(_ state: Wait.State, _ event: Wait.Event) -> (String, Wait.Action) {
        let (next, action) = Wait.transition(from: state, on: event, judge: judge)
        return (describe(next), action)
    }

    @Test func aRedirectWithTheCodeIsRedeemedThenFinishes() {
        var wait = Wait(judge: judge)
        #expect(wait.handle(.redirected(answer(["state": "s-1", "code": "c"]))) == .redeem(code: "c"))
        #expect(describe(wait.state) == "redirected c" && !wait.isFinished)
        #expect(wait.handle(.redeemed(.success("session"))) == .nothing)
        #expect(describe(wait.state) == "finished session" && wait.isFinished)
    }

    @Test func aPastedAnswerWithTheCodeIsRedeemedThenFinishes() {
        let (state, action) = step(.waiting, .pasted(answer(["state": "s-1", "code": "c"]), browserBound: false))
        #expect(state == "pasted c" && action == .redeem(code: "c"))
        #expect(step(.pasted(code: "c"), .redeemed(.failure(KCAuthError(.provider, "refused")))).0 == "failed provider")
    }

    @Test func anotherLoginsStateKeepsWaiting() {
        #expect(step(.waiting, .redirected(answer(["state": "other", "code": "c"]))) == ("waiting", .nothing))
        #expect(step(.waiting, .pasted(answer(["state": "other", "code": "c"]), browserBound: false))
                == ("waiting", .refusePaste(reason: Wait.notThisLogin)))
    }

    @Test func aPasteWhileTheBoundBrowserSignsInIsRefused() {
        #expect(step(.waiting, .pasted(answer(["state": "s-1", "code": "c"]), browserBound: true))
                == ("waiting", .refusePaste(reason: Wait.boundBrowserSignsIn)))
    }

    @Test func theProvidersErrorFinishesAtOnce() {
        #expect(step(.waiting, .redirected(answer(["state": "s-1", "error": "access_denied"]))) == ("failed accessDenied", .nothing))
        #expect(step(.waiting, .pasted(answer(["state": "s-1", "error": "server_error"]), browserBound: false)) == ("failed provider", .nothing))
    }

    @Test func nothingMovesAFinishedWait() {
        let finished = Wait.State.finished(.success("session"))
        #expect(step(finished, .redirected(answer(["state": "s-1", "code": "c2"]))) == ("finished session", .nothing))
        #expect(step(finished, .redeemed(.success("other"))) == ("finished session", .nothing))
        #expect(step(.waiting, .redeemed(.success("stray"))) == ("waiting", .nothing))
    }
}
