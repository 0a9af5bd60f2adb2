import Testing
@testable import KCAuthCore

/// A login that timed out after the listener refused connections blames those, not
/// the redirect URI (the browser did reach the listener, as another user).
@Suite struct RefusedConnectionHintTests {
    @Test func aTimeoutAfterARefusalSaysSoInsteadOfSuggestingAFixedPort() {
        let timeout = KCAuthError(.timedOut, "no response from the browser within 5 s")
        let plain = #expect(throws: KCAuthError.self) { try ExactRedirectHint.explainingTimeout { throw timeout } }
        #expect(plain?.remedy == .useFixedPort && plain?.hint == nil)
        let refused = #expect(throws: KCAuthError.self) {
            try ExactRedirectHint.explainingTimeout(refused: { [RefusedConnection(uid: 1001), RefusedConnection(uid: 1001)] }) { throw timeout }
        }
        #expect(refused?.hint == "the listener refused connections from uid 1001: only your own user and root may answer "
                + "a sign-in; open the URL in a browser running as your user")
        #expect(refused?.hint?.contains("--port") == false)
    }
}
