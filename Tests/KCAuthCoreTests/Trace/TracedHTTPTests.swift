import Foundation
import Testing
import KCAuthContract
@testable import KCAuthCore
import KCAuthTestSupport

/// What the HTTP trace shows of a request and its answer: everything but the secrets, which are
/// typed (the request's parts) or not on the answer's allow-list.
@Suite struct TracedHTTPTests {
    static let idToken = SessionFixtures.jwt(#"{"iss":"https://op","sub":"u-1","aud":"kcauth","exp":2000,"nonce":"n-0nce","email":"a@x"}"#)
    static let assertion = SessionFixtures.jwt(#"{"iss":"ci","sub":"ci","aud":"https://op/token","exp":99,"jti":"j-unique-1"}"#)

    func exchange(_ request: HTTPRequest, answer: String) throws -> (RecordingTrace, String) {
        let transport = FakeTransport()
        transport.on(request.method, request.url.reveal(), json: answer)
        let trace = RecordingTrace()
        _ = try TracingTransport(transport, trace: trace, clock: FixedClock(time: 1000)).send(request)
        return (trace, trace.lines(.text) + trace.lines(.json))
    }

    @Test func aRefreshIsShownWithoutItsSecrets() throws {
        let request = HTTPRequest(method: .post, url: "https://op/token",
                                  headers: [("Authorization", "Basic \(Secret(.authorization, "Y2k6czNjcmV0"))"), ("DPoP", WireText(Secret(.dpopProof, "p.r.oof")))],
                                  form: [FormField("grant_type", "refresh_token"), FormField("refresh_token", Secret(.refreshToken, "rt-OLD-1")),
                                         FormField("client_assertion", Secret(.clientAssertion, Self.assertion))])
        let answer = #"{"access_token":"at-NEW-1","refresh_token":"rt-NEW-2","id_token":"\#(Self.idToken)","token_type":"Bearer","expires_in":300,"scope":"openid","session_state":"ss-1","mystery":"m-1"}"#
        let (trace, lines) = try exchange(request, answer: answer)
        #expect(trace.names == ["http.request", "http.response"])
        for secret in ["Y2k6czNjcmV0", "p.r.oof", "rt-OLD-1", Self.assertion, "at-NEW-1", "rt-NEW-2", Self.idToken, "n-0nce", "ss-1", "m-1", "j-unique-1"] {
            #expect(!lines.contains(secret), "\(secret) in the trace")
        }
        for shown in ["grant_type=refresh_token", "token_type=Bearer", "expires_in=300", "scope=openid", "status=200",
                      "[refresh_token: 8 bytes, sha256 ", "[access_token: 8 bytes, sha256 ", "[authorization: ", "[dpop_proof: ",
                      "sub=u-1", "email=a@x", "[nonce: 6 bytes, sha256 ", "iss=ci", "aud=https://op/token", "exp=99", "[value: 4 bytes, sha256 "] {
            #expect(lines.contains(shown), "\(shown) not in the trace:\n\(lines)")
        }
    }

    @Test func aPublicDocumentIsShownWhole() throws {
        var request = HTTPRequest(method: .get, url: "https://op/.well-known/openid-configuration")
        request.answerHoldsNoSecret = true
        let (_, lines) = try exchange(request, answer: #"{"issuer":"https://op","token_endpoint":"https://op/token"}"#)
        #expect(lines.contains("token_endpoint=https://op/token"))
    }

    /// Each line is one line, whatever a provider puts in its text; the JSON lines parse.
    @Test func aProvidersTextCannotStartALineOfItsOwn() throws {
        let (trace, _) = try exchange(HTTPRequest(method: .get, url: "https://op/x"),
                                      answer: #"{"error":"invalid_grant","error_description":"no\n2026-01-01T00:00:00.000Z +0ms fake.event"}"#)
        for mode in [TraceMode.text, .json] {
            let lines = trace.lines(mode).split(separator: "\n")
            #expect(lines.count == 2, "\(lines)")
            if mode == .json {
                for line in lines { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
            }
        }
    }

    @Test func aQueryThatArrivedShowsOnlyItsNamesAndAnErrorsText() {
        let lines = TraceEvent("q", ("query", TracedQuery.value("code=c0de-1&state=st4te&error=access_denied&iss=https%3A%2F%2Fop")))
        let text = TraceLine.render(.text, time: 0, elapsed: 0, event: lines.name, fields: lines.lineFields)
        #expect(!text.contains("c0de-1") && !text.contains("st4te"))
        #expect(text.contains("error=access_denied") && text.contains("iss=https://op") && text.contains("code=\"[code: 6 bytes"))
    }
}
