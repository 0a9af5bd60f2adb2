import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// Against login fixation (`BrowserBinding`, `LoopbackPeer`): the login's start URL binds the
/// browser that follows it (a cookie), and only the user running kcauth may use the start URL and
/// the callback.
@Suite("Loopback browser binding")
struct LoopbackBindingTests {
    let done = LandingPage.signedIn(user: nil, profile: "p")
    let binding = BrowserBinding(
        cookieName: "kcauth-n4me", cookieValue: Secret(.cookie, "s3cret-value"), lifetime: 360,
        reusedStartError: KCAuthError(.cancelled, "opened twice"))

    func request(_ target: String, cookie: String? = nil, port: UInt16) -> String {
        NetRawClient.exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + (cookie.map { "Cookie: csrftoken=abc; \($0)\r\n" } ?? "") + "\r\n")
    }

    @Test("the start URL sets the cookie; then only a callback carrying it is judged")
    func cookieBindsTheCallback() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages())
        defer { listener.close() }
        let port = listener.port
        let start = listener.startURL(redirectingTo: "https://op.example/auth?state=s", secretPath: Secret(.startPath, "start/xyz"), binding: binding)
        #expect(start.reveal() == "http://127.0.0.1:\(port)/start/xyz")
        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(request("/start/xyz", port: port))
            results.responses.append(request("/callback?state=s&code=attacker", port: port))
            results.responses.append(request("/callback?state=s&code=attacker", cookie: "kcauth-n4me=guess", port: port))
            results.responses.append(request("/callback?state=s&code=browser", cookie: "kcauth-n4me=s3cret-value", port: port))
        }
        var judged: [String?] = []
        let received = try listener.receive(timeout: 10) { judged.append($0["code"]); return .finish(done) }
        thread.join()
        #expect(received["code"] == "browser")
        #expect(judged == ["browser"], "callbacks without the cookie never reach the judge")
        #expect(results.responses[0].hasPrefix("HTTP/1.1 302 Found\r\n"))
        #expect(results.responses[0].contains("\r\nLocation: https://op.example/auth?state=s\r\n"))
        #expect(results.responses[0].contains("\r\nSet-Cookie: kcauth-n4me=s3cret-value; Path=/callback; Max-Age=360; HttpOnly; SameSite=Lax\r\n"))
        #expect(results.responses[1].hasPrefix("HTTP/1.1 400 ") && results.responses[1].hasSuffix("<p>other browser</p>"))
        #expect(results.responses[2].hasSuffix("<p>other browser</p>"))
        #expect(results.responses[3].hasSuffix("<p>done</p>"))
    }

    @Test("a second request for the start URL ends the login with the binding's error")
    func secondStartAborts() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages())
        defer { listener.close() }
        let port = listener.port
        _ = listener.startURL(redirectingTo: "https://op.example/auth", secretPath: Secret(.startPath, "start/xyz"), binding: binding)
        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(request("/start/xyz", port: port))
            results.responses.append(request("/start/xyz", port: port))
        }
        var judged = 0
        let error = try #require(throws: KCAuthError.self) {
            _ = try listener.receive(timeout: 10) { _ in judged += 1; return .finish(done) }
        }
        thread.join()
        #expect(error == binding.reusedStartError)
        #expect(judged == 0)
        #expect(results.responses[1].hasPrefix("HTTP/1.1 409 Conflict\r\n") && results.responses[1].hasSuffix("<p>used twice</p>"))
        #expect(!results.responses[1].contains("Location:"))
    }

    @Test("a lazy start location is computed once, when the browser arrives; its error ends the login")
    func lazyStartLocation() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages())
        defer { listener.close() }
        let port = listener.port
        var calls = 0
        _ = listener.startURL(secretPath: Secret(.startPath, "start/xyz"), binding: binding) {
            calls += 1
            return "https://op.example/auth?client_id=c&request_uri=urn:x"
        }
        #expect(calls == 0, "nothing is pushed before the browser is there")
        let results = NetResults()
        let thread = NetTestThread { results.responses.append(request("/start/xyz", port: port)) }
        #expect(throws: KCAuthError.self) { _ = try listener.receive(timeout: 1.5) { _ in .finish(done) } }
        thread.join()
        #expect(calls == 1)
        #expect(results.responses[0].contains("Location: https://op.example/auth?client_id=c&request_uri=urn:x\r\n"))

        let failing = try LoopbackListener(port: 0, pages: TestPages())
        defer { failing.close() }
        let failingPort = failing.port
        let refused = KCAuthError(.provider, "pushing the authorization request failed: invalid_request")
        _ = failing.startURL(secretPath: Secret(.startPath, "start/xyz"), binding: binding) { throw refused }
        let failed = NetResults()
        let other = NetTestThread { failed.responses.append(request("/start/xyz", port: failingPort)) }
        let error = try #require(throws: KCAuthError.self) { _ = try failing.receive(timeout: 10) { _ in .finish(done) } }
        other.join()
        #expect(error == refused)
        #expect(!failed.responses[0].contains("Location:") && failed.responses[0].contains("invalid_request"))
    }

    @Test("the start URL shown answers every browser like the start URL's first answer and uses nothing up")
    func shownStartURLServesASecondBrowser() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages())
        defer { listener.close() }
        let port = listener.port
        #expect(listener.startURLToShow(secretPath: Secret(.startPath, "show/abc")) == nil, "only after a binding start URL")
        var pushes = 0
        _ = listener.startURL(secretPath: Secret(.startPath, "start/xyz"), binding: binding) {
            pushes += 1
            return "https://op.example/auth?request_uri=urn:\(pushes)"
        }
        #expect(listener.startURLToShow(secretPath: Secret(.startPath, "start/xyz")) == nil, "never the path in the browser's argv")
        #expect(listener.startURLToShow(secretPath: Secret(.startPath, "show/abc"))?.reveal() == "http://127.0.0.1:\(port)/show/abc")
        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(request("/start/xyz", port: port))   // the browser kcauth started
            results.responses.append(request("/show/abc", port: port))    // another browser of the person's
            results.responses.append(request("/show/abc", port: port))    // and again
            results.responses.append(request("/callback?code=other", port: port))
            results.responses.append(request("/callback?code=second", cookie: "kcauth-n4me=s3cret-value", port: port))
        }
        var judged: [String?] = []
        let received = try listener.receive(timeout: 10) { judged.append($0["code"]); return .finish(done) }
        thread.join()
        #expect(received["code"] == "second" && judged == ["second"])
        #expect(pushes == 3, "each answer pushes its own request")
        for (index, response) in results.responses[0...2].enumerated() {
            #expect(response.hasPrefix("HTTP/1.1 302 Found\r\n") && response.contains("Location: https://op.example/auth?request_uri=urn:\(index + 1)\r\n"))
            #expect(response.contains("Set-Cookie: kcauth-n4me=s3cret-value;"))
        }
        #expect(results.responses[3].hasSuffix("<p>other browser</p>"), "bound: a callback without the cookie is not judged")
    }

    @Test("before the start URL is used, a callback needs no cookie (the user opened the printed URL)")
    func unusedStartAcceptsThePrintedURL() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages())
        defer { listener.close() }
        let port = listener.port
        _ = listener.startURL(redirectingTo: "https://op.example/auth", secretPath: Secret(.startPath, "start/xyz"), binding: binding)
        let results = NetResults()
        let thread = NetTestThread { results.responses.append(request("/callback?code=typed", port: port)) }
        let received = try listener.receive(timeout: 10) { _ in .finish(done) }
        thread.join()
        #expect(received["code"] == "typed")
    }

    @Test("another user's connection gets 403 for the start URL and the callback, and uses up nothing")
    func otherUsersAreForbidden() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages())
        defer { listener.close() }
        let port = listener.port
        _ = listener.startURL(redirectingTo: "https://op.example/auth", secretPath: Secret(.startPath, "start/xyz"), binding: binding)
        var foreign = true
        listener.peerCheck = { _ in foreign ? .refused(uid: 4242) : .allowed(uid: getuid()) }
        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(request("/start/xyz", port: port))
            results.responses.append(request("/callback?code=attacker", port: port))
        }
        _ = try? listener.receive(timeout: 0.5) { _ in .finish(done) }
        thread.join()
        #expect(results.responses.allSatisfy { $0.hasPrefix("HTTP/1.1 403 Forbidden\r\n") })
        #expect(listener.takeRefusedConnections() == [RefusedConnection(uid: 4242), RefusedConnection(uid: 4242)])
        #expect(listener.takeRefusedConnections().isEmpty, "taken once")
        foreign = false
        let second = NetTestThread { results.responses.append(request("/start/xyz", port: port)) }
        _ = try? listener.receive(timeout: 0.5) { _ in .finish(done) }
        second.join()
        #expect(results.responses[2].hasPrefix("HTTP/1.1 302 Found\r\n"), "the start URL is still unused")
    }

    @Test("cookies from the request head", arguments: [
        ("GET / HTTP/1.1\r\nCookie: a=1; kc=v; b=2\r\n\r\n", "v"),
        ("GET / HTTP/1.1\r\ncookie:kc=v \r\n\r\n", "v"),
        ("GET / HTTP/1.1\r\nCookie: a=1\r\nCookie: kc=second\r\n\r\n", "second"),
        ("GET / HTTP/1.1\nCookie: kc=lf-only\n\n", "lf-only"),
        ("GET / HTTP/1.1\r\nCookie: kcx=1; xkc=2\r\n\r\n", nil),
        ("GET / HTTP/1.1\r\nX-Cookie: kc=v\r\n\r\n", nil),
        ("GET / HTTP/1.1\r\n\r\nCookie: kc=body\r\n", nil),
    ] as [(String, String?)])
    func cookies(head: String, expected: String?) {
        #expect(HTTPRequestHead.cookie("kc", in: Array(head.utf8)) == expected)
    }
}
