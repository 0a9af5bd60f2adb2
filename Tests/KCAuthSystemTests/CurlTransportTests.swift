import Glibc
import KCAuthCore
import Testing
@testable import KCAuthSystem

@Suite("CurlTransport against a local HTTP server")
struct CurlTransportTests {
    @Test("GET returns status, lower-cased headers and body")
    func getReturnsResponse() throws {
        let server = try NetHTTPServer()
        defer { server.stop() }
        let response = try CurlTransport().send(HTTPRequest(method: .get, url: "\(server.origin)/hello"))
        #expect(response.status == 200)
        #expect(response.body == Array("hello world".utf8))
        #expect(response.headers["x-test"] == "Yes")
        #expect(response.header("Content-Type") == "text/plain")
        #expect(response.headers["content-length"] == "11")
    }

    @Test("request headers and the user agent are sent")
    func requestHeadersAreSent() throws {
        let server = try NetHTTPServer()
        defer { server.stop() }
        let request = HTTPRequest(method: .get, url: "\(server.origin)/headers",
                                  headers: [("Accept", "application/json"), ("X-Empty", "")])
        let response = try CurlTransport(userAgent: "kcauth-test/1").send(request)
        let echoed = String(decoding: response.body, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(echoed.contains("accept=application/json"))
        #expect(echoed.contains("user-agent=kcauth-test/1"))
        #expect(echoed.contains("x-empty="))
    }

    @Test("POST sends the body and the caller's Content-Type, without Expect: 100-continue")
    func postEchoesBody() throws {
        let server = try NetHTTPServer()
        defer { server.stop() }
        // Over 1 MiB: the size at which libcurl 7.88 would add "Expect: 100-continue".
        // The secret field goes on the wire percent-encoded like a plain one.
        let body = Array("grant_type=authorization_code&code=a%2Bb&x=".utf8) + [UInt8](repeating: 0x61, count: 1_100_000)
        let form = [FormField("grant_type", "authorization_code"), FormField("code", Secret(.authorizationCode, "a+b")),
                    FormField("x", String(repeating: "a", count: 1_100_000))]
        let request = HTTPRequest(method: .post, url: WireText("\(server.origin)/token"),
                                  headers: [("Content-Type", "application/x-www-form-urlencoded")], form: form)
        let response = try CurlTransport().send(request)
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.headers["x-got-content-type"] == "application/x-www-form-urlencoded")
        #expect(response.headers["x-got-expect"] == "none")
    }

    @Test("POST with an empty body")
    func postEmptyBody() throws {
        let server = try NetHTTPServer()
        defer { server.stop() }
        let response = try CurlTransport().send(HTTPRequest(method: .post, url: WireText("\(server.origin)/x"), form: nil))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
    }

    @Test("4xx and 5xx are responses, not errors", arguments: [404, 500, 503])
    func errorStatusesAreResponses(status: Int) throws {
        let server = try NetHTTPServer()
        defer { server.stop() }
        let response = try CurlTransport().send(HTTPRequest(method: .get, url: "\(server.origin)/status/\(status)"))
        #expect(response.status == status)
        #expect(response.body == Array("status \(status)".utf8))
    }

    @Test("redirects are returned, never followed")
    func redirectsAreNotFollowed() throws {
        let server = try NetHTTPServer()
        defer { server.stop() }
        let response = try CurlTransport().send(HTTPRequest(method: .get, url: "\(server.origin)/redirect"))
        #expect(response.status == 302)
        #expect(response.headers["location"] == "/hello")
        #expect(response.body == Array("moved".utf8))
    }

    @Test("connection refused fails fast with a network error naming host and port")
    func connectionRefused() throws {
        let refusing = try NetRefusingPort()
        let port = refusing.port
        let started = netMonotonicNow()
        let error = try #require(throws: KCAuthError.self) {
            try CurlTransport().send(HTTPRequest(method: .get, url: "http://127.0.0.1:\(port)/x"))
        }
        #expect(error.code == .network)
        #expect(error.message == "cannot connect to 127.0.0.1:\(port): connection refused")
        #expect(error.cause != nil)
        #expect(error.transient, "a poll may try again: the provider may be back in a moment")
        #expect(netMonotonicNow() - started < 5)
        withExtendedLifetime(refusing) {}
    }

    @Test("a server that does not answer hits the total timeout")
    func totalTimeout() throws {
        let server = try NetHTTPServer()
        defer { server.stop() }
        let error = try #require(throws: KCAuthError.self) {
            try CurlTransport(totalTimeout: 1).send(HTTPRequest(method: .get, url: "\(server.origin)/sleep"))
        }
        #expect(error.code == .network)
        #expect(error.message == "timed out after 1 s waiting for 127.0.0.1:\(server.port)")
        #expect(error.transient)
    }

    @Test("an unresolvable host is a network error naming it")
    func unresolvableHost() throws {
        let error = try #require(throws: KCAuthError.self) {
            try CurlTransport(totalTimeout: 10).send(HTTPRequest(method: .get, url: "http://nosuch.invalid/x"))
        }
        #expect(error.code == .network)
        // Behind a proxy the proxy resolves the name; either way the message names the host.
        #expect(error.message.contains("nosuch.invalid"))
    }

    @Test("schemes other than http and https are refused")
    func otherSchemesRefused() throws {
        let error = try #require(throws: KCAuthError.self) {
            try CurlTransport().send(HTTPRequest(method: .get, url: "file:///etc/passwd"))
        }
        #expect(error.message.contains("only http and https"))
        #expect(!error.transient, "another try cannot change the URL")
    }

    @Test("seconds are written the way people write them")
    func secondsText() {
        #expect(humanSeconds(30) == "30")
        #expect(humanSeconds(0.3) == "0.3")
        #expect(humanSeconds(1.25) == "1.25")
    }
}

/// A port on 127.0.0.1 that nothing listens on: bound and closed again. Another test may
/// grab it meanwhile; use `NetRefusingPort` where that would matter.
func netClosedPort() throws -> UInt16 {
    let listener = try LoopbackReceiver(pages: TestPages()).bind(port: 0)
    defer { listener.close() }
    return netPort(of: listener.redirectURI)
}

/// A TCP port on 127.0.0.1 that is bound but not listening: connections are refused, and no
/// parallel test can take the port while this holds it.
final class NetRefusingPort {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, let port = LoopbackListener.boundAddress(fd)?.port else {
            Glibc.close(fd)
            throw NetTestError("cannot bind a refusing port")
        }
        self.fd = fd
        self.port = port
    }

    deinit { Glibc.close(fd) }
}

func netMonotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
