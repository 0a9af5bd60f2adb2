import KCAuthCore
import Testing
@testable import KCAuthSystem

@Suite("Loopback request parsing")
struct LoopbackParserTests {
    @Test("request heads", arguments: [
        ("GET /callback?code=x HTTP/1.1\r\nHost: a\r\n\r\n", HTTPRequestHead.request(method: "GET", path: "/callback", query: "code=x")),
        ("GET / HTTP/1.0\n\n", .request(method: "GET", path: "/", query: nil)),
        ("GET http://127.0.0.1:1/callback?a=b HTTP/1.1\r\n\r\n", .request(method: "GET", path: "/callback", query: "a=b")),
        ("GET http://127.0.0.1:1?a=b HTTP/1.1\r\n\r\n", .request(method: "GET", path: "/", query: "a=b")),
        ("GET /callback HTTP/1.1\r\nHost: a\r\n", .incomplete),
        ("GET /callback", .incomplete),
        ("GET  /callback HTTP/1.1\r\n\r\n", .malformed),
        ("GET /callback SPDY/3\r\n\r\n", .malformed),
        ("GET callback HTTP/1.1\r\n\r\n", .malformed),
        ("\r\n\r\n", .malformed),
    ])
    func heads(text: String, expected: HTTPRequestHead) {
        #expect(HTTPRequestHead.parse(Array(text.utf8)) == expected)
    }

    @Test("query decoding", arguments: [
        ("a=1&b=2", ["a": "1", "b": "2"]),
        ("a=x+y%2Bz", ["a": "x y+z"]),
        ("state=first&state=second", ["state": "first"]),
        ("&&a=&=v&b", ["a": "", "b": ""]),
        ("e=%e2%82%ac&bad=%f", ["e": "€", "bad": "%f"]),
        ("k%20ey=v=w", ["k ey": "v=w"]),
    ])
    func query(text: String, expected: [String: String]) {
        #expect(FormEncoding.decode(text) == expected)
    }
}
