import KCAuthCore
import Testing
@testable import KCAuthSystem

@Suite("LoopbackReceiver with another path (logout --browser)")
struct LoopbackLogoutPathTests {
    @Test("the post-logout listener judges /logged-out only; /callback is a 404 there")
    func loggedOutPath() throws {
        let listener = try LoopbackReceiver(path: "/logged-out", pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let port = netPort(of: listener.redirectURI)
        #expect(listener.redirectURI == "http://127.0.0.1:\(port)/logged-out")
        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(NetRawClient.get(port: port, "/callback?state=s"))
            results.responses.append(NetRawClient.get(port: port, "/logged-out?state=s"))
        }
        var judged: [CallbackRequest] = []
        let request = try listener.receive(timeout: 10) { judged.append($0); return .finish(.signedOut(profile: "p")) }
        thread.join()
        #expect(judged == [request] && request["state"] == "s")
        #expect(results.responses.first?.hasPrefix("HTTP/1.1 404 Not Found\r\n") == true)
        #expect(results.responses.last?.contains("You are signed out") == true)
    }
}
