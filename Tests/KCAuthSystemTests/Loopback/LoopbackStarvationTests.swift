import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

/// `LoopbackLimits`: connections that send nothing must not lock the browser out.
@Suite("Loopback listener under idle connections")
struct LoopbackStarvationTests {
    let done = LandingPage.signedIn(user: nil, profile: "p")

    @Test("with every slot taken by silent connections, a new callback is still served")
    func fullSlotsEvictTheOldestSilentConnection() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages(), limits: LoopbackLimits(maxConnections: 4, idleSeconds: 60, headSeconds: 60))
        defer { listener.close() }
        let results = NetResults()
        let silent = NetClients()
        let port = listener.port
        let thread = NetTestThread {
            // Accepted while the listener runs (the kernel's backlog holds only 32).
            for _ in 0..<40 { if let client = try? NetRawClient(port: port) { silent.clients.append(client) } }
            usleep(200_000)
            results.responses.append(NetRawClient.get(port: port, "/callback?code=real"))
        }
        defer { for client in silent.clients { client.close() } }
        let request = try listener.receive(timeout: 10) { _ in .finish(done) }
        thread.join()
        #expect(request["code"] == "real")
        #expect(silent.clients.count == 40)
        #expect(results.responses.first?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
    }

    @Test("a connection that sends nothing is closed after the idle deadline, while the listener waits on")
    func idleConnectionIsClosed() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages(), limits: LoopbackLimits(idleSeconds: 0.2, headSeconds: 5))
        defer { listener.close() }
        let idle = try NetRawClient(port: listener.port)
        defer { idle.close() }
        let closedAt = NetResults()
        let started = netMonotonicNow()
        let reader = NetTestThread {
            let text = idle.readAll()  // returns at end-of-file
            closedAt.responses.append("\(netMonotonicNow() - started) \(text.isEmpty)")
        }
        _ = try? listener.receive(timeout: 1.5) { _ in .finish(done) }
        reader.join()
        let parts = try #require(closedAt.responses.first).split(separator: " ")
        #expect(parts[1] == "true", "closed without an answer")
        #expect(try #require(Double(parts[0])) < 1.0, "closed at the idle deadline, not when receive gave up")
    }

    @Test("a request head that trickles in is cut off at the head deadline")
    func slowHeadIsCutOff() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages(), limits: LoopbackLimits(idleSeconds: 0.3, headSeconds: 0.6))
        defer { listener.close() }
        let slow = try NetRawClient(port: listener.port)
        defer { slow.close() }
        let started = netMonotonicNow()
        let closedAt = NetResults()
        let sender = NetTestThread {
            // One byte every 0.1 s keeps the idle deadline away, never the head deadline.
            for byte in "GET /callback?state=slowly-and-more-slowly HTTP/1.1\r\n\r\n".map(String.init) {
                slow.send(byte)
                usleep(100_000)
            }
        }
        let reader = NetTestThread {
            let text = slow.readAll()
            closedAt.responses.append("\(netMonotonicNow() - started) \(text.isEmpty)")
        }
        var judged = 0
        _ = try? listener.receive(timeout: 2.5) { _ in judged += 1; return .finish(done) }
        reader.join()
        sender.join()
        #expect(judged == 0, "the head would have been complete after about 4.5 s")
        let parts = try #require(closedAt.responses.first).split(separator: " ")
        #expect(parts[1] == "true")
        let elapsed = try #require(Double(parts[0]))
        #expect(elapsed >= 0.55 && elapsed < 1.5, "cut off at the head deadline: \(elapsed) s")
    }

    @Test("a decided login stays decided when the browser never reads the page")
    func finishedLoginSurvivesAnUnreadPage() throws {
        let listener = try LoopbackListener(port: 0, pages: TestPages(), limits: LoopbackLimits(writeSeconds: 0.3))
        defer { listener.close() }
        let client = try NetRawClient(port: listener.port)
        defer { client.close() }
        var size: Int32 = 4096
        _ = setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        client.send("GET /callback?code=real HTTP/1.1\r\n\r\n")
        let big = LandingPage.signedIn(user: String(repeating: "x", count: 8 << 20), profile: "p")
        let request = try listener.receive(timeout: 10) { _ in .finish(big) }
        #expect(request["code"] == "real")
    }
}

final class NetClients: @unchecked Sendable {
    var clients: [NetRawClient] = []
}
