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
            let parameters = step(openedURL())
            if let startError { throw startError }
            let request = CallbackRequest(parameters: parameters)
            let verdict = judge(request)
            pages.append(verdict)
            if case .finish = verdict { return request }
        }
        throw KCAuthError(.timedOut, "no response from the browser within \(Int(timeout)) s")
    }

    public private(set) var startLocation: String?
    public private(set) var startedAt: String?
    public func startURL(redirectingTo location: WireText, secretPath: Secret) -> WireText {
        startLocation = location.reveal()
        startedAt = "http://127.0.0.1:50000/" + secretPath.reveal()
        return "http://127.0.0.1:50000/\(secretPath)"
    }

    /// Where a browser opened at `url` ends up: the start URL redirects, like the real listener's
    /// (a lazy location is computed on the first follow; its error is kept in `startError`).
    public func follow(_ url: String) -> String {
        if url == shownAt, url != startedAt {
            if let locator = startLocator ?? lastLocator {
                do { return try locator() } catch { startError = error }
            }
            return startLocation ?? ""
        }
        guard url == startedAt else { return url }
        if let locator = startLocator {
            startLocator = nil
            lastLocator = locator
            do { startLocation = try locator() } catch { startError = error }
        }
        return startLocation ?? ""
    }

    public private(set) var startLocator: (() throws -> String)?
    private var lastLocator: (() throws -> String)?
    public private(set) var startError: (any Error)?
    public func startURL(secretPath: Secret, binding: BrowserBinding, locating location: @escaping () throws -> WireText) -> WireText {
        self.binding = binding
        startLocation = nil
        startLocator = { try location().reveal() }
        startedAt = "http://127.0.0.1:50000/" + secretPath.reveal()
        return "http://127.0.0.1:50000/\(secretPath)"
    }

    public private(set) var binding: BrowserBinding?
    public func startURL(redirectingTo location: WireText, secretPath: Secret, binding: BrowserBinding) -> WireText {
        self.binding = binding
        return startURL(redirectingTo: location, secretPath: secretPath)
    }

    /// The start URL shown to the person (`startURLToShow`): followed, it leads where the start URL
    /// leads, every time (a lazy location is computed again).
    public private(set) var shownAt: String?
    public func startURLToShow(secretPath: Secret) -> WireText? {
        guard binding != nil else { return nil }
        shownAt = "http://127.0.0.1:50000/" + secretPath.reveal()
        return "http://127.0.0.1:50000/\(secretPath)"
    }

    public func close() { closed = true }
}
