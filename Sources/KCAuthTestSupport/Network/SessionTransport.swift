import Foundation
import Testing
@_exported import KCAuthCore

/// HTTP stub for the session commands: per `METHOD URL` a response (with headers) or a failure;
/// an unexpected request fails the test.
public final class SessionTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: Result<HTTPResponse, KCAuthError>] = [:]
    public private(set) var requests: [HTTPRequest] = []

    public init() {}

    public func on(_ method: HTTPRequest.Method, _ url: String, status: Int, body: String = "", headers: [String: String] = [:]) {
        lock.withLock { routes["\(method.rawValue) \(url)"] = .success(HTTPResponse(status: status, headers: headers, body: Array(body.utf8))) }
    }

    public func fail(_ method: HTTPRequest.Method, _ url: String, _ error: KCAuthError) {
        lock.withLock { routes["\(method.rawValue) \(url)"] = .failure(error) }
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let route = lock.withLock {
            requests.append(request)
            return routes["\(request.method.rawValue) \(request.url.reveal())"]
        }
        guard let route else {
            Issue.record("unexpected HTTP request: \(request.method.rawValue) \(request.url.reveal())")
            throw KCAuthError(.network, "no stub")
        }
        return try route.get()
    }

    public func fields(of url: String) -> [[String: String]] {
        lock.withLock { requests.filter { $0.url.reveal() == url }.map(formFields(of:)) }
    }
}
