import Foundation
import Testing
@testable import KCAuthCore

/// HTTP stub: answers only the routes it was given; anything else fails the test loudly.
final class FakeTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: [HTTPResponse]] = [:]
    private(set) var requests: [HTTPRequest] = []

    /// Queues a response for `METHOD URL`; the last queued response repeats.
    func on(_ method: HTTPRequest.Method, _ url: String, status: Int = 200, json: String) {
        lock.withLock { routes["\(method.rawValue) \(url)", default: []].append(HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Array(json.utf8))) }
    }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try lock.withLock {
            requests.append(request)
            let key = "\(request.method.rawValue) \(request.url)"
            guard var queue = routes[key], let first = queue.first else {
                Issue.record("unexpected HTTP request: \(key)")
                throw KCAuthError(.network, "no stub for \(key)")
            }
            if queue.count > 1 { queue.removeFirst(); routes[key] = queue }
            return first
        }
    }

    func requests(to url: String) -> [HTTPRequest] { lock.withLock { requests.filter { $0.url == url } } }
}

struct FixedClock: TimeSource {
    var time: Double
    func now() -> Double { time }
}

/// Every byte is 0x01, so state, nonce and verifier are predictable in assertions.
struct FixedRandom: RandomSource {
    func bytes(_ count: Int) throws -> [UInt8] { Array(repeating: 1, count: count) }
}

final class InMemorySecretStore: SecretStore, @unchecked Sendable {
    private let lock = NSLock()
    var items: [String: (SecretKey, String)] = [:]
    var unavailable: KCAuthError?
    let name = "memory"

    func checkAvailable() throws { if let unavailable { throw unavailable } }
    func read(profile: String) throws -> String? {
        try checkAvailable()
        return lock.withLock { items[profile]?.1 }
    }
    func write(_ secret: String, for key: SecretKey) throws {
        try checkAvailable()
        lock.withLock { items[key.profile] = (key, secret) }
    }
    func delete(profile: String) throws -> Bool {
        try checkAvailable()
        return lock.withLock { items.removeValue(forKey: profile) != nil }
    }
}

final class RecordingOpener: URLOpener, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var opened: [String] = []
    var failure: KCAuthError?
    func open(_ url: String) throws {
        lock.withLock { opened.append(url) }
        if let failure { throw failure }
    }
}

/// Plays the browser: hands the listener's judge a list of callbacks; each callback may depend on
/// the authorization URL that was opened (to echo `state`).
final class ScriptedReceiver: RedirectReceiver, BoundRedirectListener, @unchecked Sendable {
    let redirectURI = "http://127.0.0.1:50000/callback"
    var script: [(_ authorizationURL: String) -> [String: String]] = []
    var openedURL: () -> String = { "" }
    private(set) var pages: [CallbackVerdict] = []
    private(set) var closed = false

    func bind(port: UInt16) throws -> any BoundRedirectListener { self }

    func receive(timeout: Double, judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest {
        for step in script {
            let request = CallbackRequest(parameters: step(openedURL()))
            let verdict = judge(request)
            pages.append(verdict)
            if case .finish = verdict { return request }
        }
        throw KCAuthError(.timedOut, "no response from the browser within \(Int(timeout)) s")
    }

    private(set) var startLocation: String?
    private(set) var startedAt: String?
    func startURL(redirectingTo location: String, secretPath: String) -> String {
        startLocation = location
        startedAt = "http://127.0.0.1:50000/" + secretPath
        return startedAt!
    }

    /// Where a browser opened at `url` ends up: the start URL redirects, like the real listener's.
    func follow(_ url: String) -> String { url == startedAt ? startLocation ?? "" : url }

    private(set) var binding: BrowserBinding?
    func startURL(redirectingTo location: String, secretPath: String, binding: BrowserBinding) -> String {
        self.binding = binding
        return startURL(redirectingTo: location, secretPath: secretPath)
    }

    func close() { closed = true }
}

func queryParameters(of url: String) -> [String: String] {
    guard let q = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
    return FormEncoding.decode(String(q))
}

func formFields(of request: HTTPRequest) -> [String: String] {
    FormEncoding.decode(String(decoding: request.body ?? [], as: UTF8.self))
}
