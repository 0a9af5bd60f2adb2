import KCAuthCore
import Testing
@testable import KCAuthSystem

/// The one-shot start redirect that keeps a token-carrying URL out of the browser's argv.
@Suite("Loopback start URL")
struct LoopbackStartURLTests {
    @Test("the start path redirects once, then answers 404, and is never judged")
    func startRedirectsOnce() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let port = netPort(of: listener.redirectURI)
        let start = listener.startURL(redirectingTo: "https://op.example/logout?id_token_hint=secret", secretPath: Secret(.startPath, "start/abc"))
        #expect(start.reveal() == "http://127.0.0.1:\(port)/start/abc")

        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(NetRawClient.get(port: port, "/start/abc"))
            results.responses.append(NetRawClient.get(port: port, "/start/abc"))
            results.responses.append(NetRawClient.get(port: port, "/callback?state=s"))
        }
        var judged = 0
        _ = try listener.receive(timeout: 10) { _ in judged += 1; return .finish(.signedIn(user: "ok", profile: "p")) }
        thread.join()

        #expect(results.responses[0].hasPrefix("HTTP/1.1 302 Found\r\n"))
        #expect(results.responses[0].contains("\r\nLocation: https://op.example/logout?id_token_hint=secret\r\n"))
        #expect(results.responses[0].contains("\r\nCache-Control: no-store\r\n"))
        #expect(results.responses[1].hasPrefix("HTTP/1.1 404 Not Found\r\n"), "used up")
        #expect(judged == 1)
    }
}
