import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

@Suite("LoopbackReceiver on real sockets")
struct LoopbackReceiverTests {
    let done = LandingPage.signedIn(user: nil, profile: "p")
    let wrong = LandingPage.notThisSignIn

    @Test("an ephemeral bind gives a port and a 127.0.0.1 redirect URI")
    func ephemeralBind() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let port = netPort(of: listener.redirectURI)
        #expect(port > 0)
        #expect(listener.redirectURI == "http://127.0.0.1:\(port)/callback")
    }

    @Test("the socket is bound to 127.0.0.1 only, close-on-exec")
    func boundToLoopbackOnly() throws {
        let listener = try #require(try LoopbackReceiver(pages: TestPages()).bind(port: 0) as? LoopbackListener)
        defer { listener.close() }
        let bound = try #require(LoopbackListener.boundAddress(listener.listenFD))
        #expect(bound.address == 0x7f00_0001)
        #expect(bound.port == listener.port)
        #expect(fcntl(listener.listenFD, F_GETFD) & FD_CLOEXEC != 0)
        // And not reachable on any other local IPv4 address, if the machine has one.
        for address in nonLoopbackIPv4Addresses() {
            #expect(throws: NetConnectError.self) { _ = try NetRawClient(port: listener.port, address: address) }
        }
    }

    @Test("a port in use is a usage error")
    func portInUse() throws {
        let first = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { first.close() }
        let port = netPort(of: first.redirectURI)
        let error = try #require(throws: KCAuthError.self) { _ = try LoopbackReceiver(pages: TestPages()).bind(port: port) }
        #expect(error.code == .usage)
        #expect(error.message == "port \(port) on 127.0.0.1 is already in use")
        #expect(error.remedy == .chooseAnotherPort && error.hint == nil)
    }

    @Test("a fixed free port is honoured")
    func fixedPort() throws {
        // A parallel test may take the free port first; a second try settles that.
        for _ in 1...3 {
            let port = try netClosedPort()
            guard let listener = try? LoopbackReceiver(pages: TestPages()).bind(port: port) else { continue }
            defer { listener.close() }
            #expect(listener.redirectURI == "http://127.0.0.1:\(port)/callback")
            return
        }
        Issue.record("no free port could be bound by number")
    }

    @Test("finish returns the percent-decoded parameters after the page is sent")
    func finishDecodesQuery() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let port = netPort(of: listener.redirectURI)
        let client = try NetRawClient(port: port)
        defer { client.close() }
        client.send("GET /callback?code=a%2Fb%20c&state=x+y&iss=https%3A%2F%2Fidp%2Frealms%2Fr&e=%C3%A9&empty=&flag&bad=%zz HTTP/1.1\r\nHost: x\r\n\r\n")
        var judged: [CallbackRequest] = []
        let request = try listener.receive(timeout: 10) { judged.append($0); return .finish(done) }
        #expect(judged == [request])
        #expect(request.parameters == ["code": "a/b c", "state": "x y", "iss": "https://idp/realms/r",
                                       "e": "é", "empty": "", "flag": "", "bad": "%zz"])
        let response = client.readAll()
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        for header in ["Content-Type: text/html; charset=utf-8", "Cache-Control: no-store",
                       "Referrer-Policy: no-referrer", "Connection: close", "Content-Length: 11"] {
            #expect(response.contains(header + "\r\n"))
        }
        #expect(response.hasSuffix("\r\n\r\n<p>done</p>"))
    }

    @Test("other paths get 404 and are not judged; other methods get 405")
    func otherPathsAndMethods() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let port = netPort(of: listener.redirectURI)
        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(NetRawClient.get(port: port, "/favicon.ico"))
            results.responses.append(NetRawClient.get(port: port, "/other?code=x"))
            results.responses.append(NetRawClient.exchange(port: port, "POST /callback HTTP/1.1\r\nContent-Length: 0\r\n\r\n"))
            results.responses.append(NetRawClient.exchange(port: port, "garbage\r\n\r\n"))
            results.responses.append(NetRawClient.get(port: port, "/callback?code=real"))
        }
        var judged: [CallbackRequest] = []
        let request = try listener.receive(timeout: 10) { judged.append($0); return .finish(done) }
        thread.join()
        #expect(judged.count == 1)
        #expect(request["code"] == "real")
        #expect(results.responses.count == 5)
        #expect(results.responses[0].hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(results.responses[1].hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(results.responses[2].hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        #expect(results.responses[2].contains("\r\nAllow: GET\r\n"))
        #expect(results.responses[3].hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(results.responses[4].hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    @Test("an idle pre-connected socket does not block a later callback")
    func idleConnectionDoesNotBlock() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let port = netPort(of: listener.redirectURI)
        let idle = try NetRawClient(port: port)  // a browser's speculative connection
        defer { idle.close() }
        let half = try NetRawClient(port: port)  // a request head that never completes
        defer { half.close() }
        half.send("GET /callback?code=partial HTTP/1.1\r\nHost: x\r\n")
        let results = NetResults()
        let thread = NetTestThread {
            usleep(100_000)
            results.responses.append(NetRawClient.get(port: port, "/callback?code=real"))
        }
        let request = try listener.receive(timeout: 10) { _ in .finish(done) }
        thread.join()
        #expect(request["code"] == "real")
        #expect(results.responses.first?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
    }

    @Test("keepWaiting answers the request and waiting continues")
    func keepWaitingContinues() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let port = netPort(of: listener.redirectURI)
        let results = NetResults()
        let thread = NetTestThread {
            results.responses.append(NetRawClient.get(port: port, "/callback?state=forged&code=evil"))
            results.responses.append(NetRawClient.get(port: port, "/callback?state=good&code=real"))
        }
        var judged: [String?] = []
        let request = try listener.receive(timeout: 10) { request in
            judged.append(request["state"])
            return request["state"] == "good" ? .finish(done) : .keepWaiting(wrong)
        }
        thread.join()
        #expect(judged == ["forged", "good"])
        #expect(request["code"] == "real")
        #expect(results.responses[0].hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(results.responses[0].hasSuffix("<p>wrong state</p>"))
        #expect(results.responses[1].hasSuffix("<p>done</p>"))
    }

    @Test("an oversized request head gets 431 and is not judged")
    func oversizedRequest() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let port = netPort(of: listener.redirectURI)
        let results = NetResults()
        let thread = NetTestThread {
            let huge = String(repeating: "a", count: 20_000)
            results.responses.append(NetRawClient.exchange(port: port, "GET /callback?x=\(huge) HTTP/1.1\r\n\r\n"))
            results.responses.append(NetRawClient.get(port: port, "/callback?code=ok"))
        }
        var judged: [CallbackRequest] = []
        let request = try listener.receive(timeout: 10) { judged.append($0); return .finish(done) }
        thread.join()
        #expect(judged == [request])
        #expect(request["code"] == "ok")
        #expect(results.responses[0].hasPrefix("HTTP/1.1 431 "))
    }

    @Test("no browser within the timeout is a timedOut error")
    func timeout() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        defer { listener.close() }
        let started = netMonotonicNow()
        let error = try #require(throws: KCAuthError.self) {
            _ = try listener.receive(timeout: 0.3) { _ in .finish(done) }
        }
        let elapsed = netMonotonicNow() - started
        #expect(error.code == .timedOut)
        #expect(error.message == "no response from the browser within 0.3 s")
        #expect(elapsed >= 0.29)
    }

    @Test("close is idempotent and frees the port")
    func closeIsIdempotent() throws {
        let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
        let port = netPort(of: listener.redirectURI)
        listener.close()
        listener.close()
        #expect((listener as? LoopbackListener)?.listenFD == -1)
        #expect(throws: KCAuthError.self) { _ = try listener.receive(timeout: 0.1) { _ in .finish(done) } }
        // The port is free again (it can be bound by number at once).
        let again = try LoopbackReceiver(pages: TestPages()).bind(port: port)
        again.close()
    }

    private func nonLoopbackIPv4Addresses() -> [UInt32] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var result: [UInt32] = []
        var cursor = list
        while let entry = cursor {
            if let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) {
                let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt32(bigEndian: $0.pointee.sin_addr.s_addr)
                }
                if ipv4 >> 24 != 127 { result.append(ipv4) }
            }
            cursor = entry.pointee.ifa_next
        }
        return result
    }
}
