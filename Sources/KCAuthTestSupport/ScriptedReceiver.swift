import Foundation
import Testing
@_exported import KCAuthCore

/// Plays the browser: hands the listener's judge a list of callbacks; each callback may depend on
/// the authorization URL that was opened (to echo `state`).
public final class ScriptedReceiver: RedirectReceiver, BoundRedirectListener, @unchecked Sendable {
    public let redirectURI = "http://127.0.0.1:50000/callback"
    public init() {}
    public var script: [(_ authorizationURL: String) -> [String: String]] = []
    public var openedURL: () -> String = { "" }
    public private(set) var pages: [CallbackVerdict] = []
    public private(set) var closed = false

    public func bind(port: UInt16) throws -> any BoundRedirectListener { self }

    public func receive(timeout: Double, judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest {
        for step in script {
            let request = CallbackRequest(parameters: step(openedURL()))
            let verdict = judge(request)
            pages.append(verdict)
            if case .finish = verdict { return request }
        }
        throw KCAuthError(.timedOut, "no response from the browser within \(Int(timeout)) s")
    }

    public private(set) var startLocation: String?
    public func startURL(redirectingTo location: String, secretPath: String) -> String {
        startLocation = location
        return "http://127.0.0.1:50000/" + secretPath
    }

    public func close() { closed = true }
}
