import Foundation
import Testing
@_exported import KCAuthCore

/// HTTP stub: answers only the routes it was given; anything else fails the test loudly.
public final class FakeTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: [HTTPResponse]] = [:]
    public private(set) var requests: [HTTPRequest] = []

    public init() {}

    /// Queues a response for `METHOD URL`; the last queued response repeats.
    public func on(_ method: HTTPRequest.Method, _ url: String, status: Int = 200, json: String) {
        lock.withLock { routes["\(method.rawValue) \(url)", default: []].append(HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Array(json.utf8))) }
    }

    /// Answers `METHOD URL` with this response from now on (whatever was queued before).
    public func replace(_ method: HTTPRequest.Method, _ url: String, status: Int = 200, json: String) {
        lock.withLock { routes["\(method.rawValue) \(url)"] = [HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Array(json.utf8))] }
    }

    /// Answers `METHOD URL?…` whatever the query, unless a route for the whole URL is queued.
    public func onAnyQuery(_ method: HTTPRequest.Method, _ url: String, _ response: HTTPResponse) {
        lock.withLock { anyQuery["\(method.rawValue) \(url)"] = response }
    }

    private var anyQuery: [String: HTTPResponse] = [:]

    /// A provider's sign-in page, as its authorization endpoint shows one to a browser that is not signed in.
    public static let loginPage = HTTPResponse(status: 200, headers: ["content-type": "text/html; charset=utf-8"],
                                               body: Array("<html><body><form id=\"kc-form-login\"></form></body></html>".utf8))

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try lock.withLock {
            requests.append(request)
            let key = "\(request.method.rawValue) \(request.url.reveal())"
            let withoutQuery = String(key.prefix { $0 != "?" })
            if routes[key] == nil, let any = anyQuery[withoutQuery] { return any }
            guard var queue = routes[key], let first = queue.first else {
                Issue.record("unexpected HTTP request: \(key)")
                throw KCAuthError(.network, "no stub for \(key)")
            }
            if queue.count > 1 { queue.removeFirst(); routes[key] = queue }
            return first
        }
    }

    public func requests(to url: String) -> [HTTPRequest] { lock.withLock { requests.filter { $0.url.reveal() == url } } }

    /// The requests to `url` with any query.
    public func requests(toAnyQueryOf url: String) -> [HTTPRequest] {
        lock.withLock { requests.filter { $0.url.reveal() == url || $0.url.reveal().hasPrefix(url + "?") } }
    }
}
