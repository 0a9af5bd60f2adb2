/// A bound loopback listener. `redirectURI` is known as soon as it exists, so the browser is
/// opened only once a callback can be received.
public protocol BoundRedirectListener: AnyObject {
    /// `http://127.0.0.1:PORT/callback`
    var redirectURI: String { get }

    /// Serves connections until `judge` returns `.finish` for a request to the callback path, or
    /// until `timeout` seconds pass (throws `timedOut`). Requests to other paths get 404 and are
    /// not shown to `judge`. Several connections are served at once (browsers pre-connect).
    func receive(timeout: Double, judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest

    /// Makes `http://127.0.0.1:PORT/<secretPath>` answer once with a redirect to `location`, and
    /// returns that local URL. The browser is started with it, so a URL that carries a token
    /// (logout's `id_token_hint`) never appears in a process's argv, where other users can read
    /// it, nor in a message; after one use the path answers 404.
    func startURL(redirectingTo location: WireText, secretPath: Secret) -> WireText

    /// Like `startURL(redirectingTo:secretPath:)`, and binds the browser that follows it to this
    /// login (see `BrowserBinding`): its first answer sets the binding's cookie; once it was used,
    /// a callback without the cookie gets `LandingPage.otherBrowser` and is not shown to the judge;
    /// a second request for it gets `LandingPage.startUsedTwice` and `receive` throws
    /// `reusedStartError`.
    func startURL(redirectingTo location: WireText, secretPath: Secret, binding: BrowserBinding) -> WireText

    /// Like `startURL(redirectingTo:secretPath:binding:)`, with the redirect's location computed
    /// by `location` when the first request for the start URL arrives (a pushed authorization
    /// request, whose `request_uri` lives briefly, is pushed then). It is called once for the start
    /// URL, and again for each request of the URL shown (`startURLToShow`); if
    /// it throws, the browser gets a failure page and `receive` throws that error.
    func startURL(secretPath: Secret, binding: BrowserBinding, locating location: @escaping () throws -> WireText) -> WireText

    /// After one of the binding start URLs: a second local URL (`secretPath` another secret) for
    /// the person to see, never for a process's argv. It answers every request as the binding
    /// start URL answers its first (the provider's location, computed again each time, and the
    /// binding's cookie), so a second browser on this machine can sign in too, and it is no
    /// "second use" of the start URL. Nil: the listener has none (the full URL is shown then).
    func startURLToShow(secretPath: Secret) -> WireText?

    /// Like `receive(timeout:judge:)`, and calls `tick` about every `interval` seconds while
    /// waiting (first right away): for a countdown, for noticing a launcher that failed, and for
    /// answers pasted at the terminal. A request returned by `tick` ends the wait and is
    /// returned; an error thrown by it ends the wait with that error.
    func receive(timeout: Double, tickEvery interval: Double, tick: () throws -> CallbackRequest?,
                 judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest

    /// Whether a browser has opened the binding start URL or the one shown (`BrowserBinding`):
    /// from then on only a browser with its cookie may deliver the answer, so a pasted one is
    /// refused like a callback without the cookie.
    var browserBound: Bool { get }

    /// The connections refused since the last call (another user's, or an owner that could not
    /// be established), oldest first; for saying so while waiting. `receive` calls `tick` right
    /// after refusing one.
    func takeRefusedConnections() -> [RefusedConnection]

    /// Stops listening; idempotent.
    func close()
}

extension BoundRedirectListener {
    /// For listeners without a clock of their own (test doubles): one tick, then the plain wait.
    public func receive(timeout: Double, tickEvery interval: Double, tick: () throws -> CallbackRequest?,
                        judge: (CallbackRequest) -> CallbackVerdict) throws -> CallbackRequest {
        if let request = try tick() { return request }
        return try receive(timeout: timeout, judge: judge)
    }

    public var browserBound: Bool { false }

    public func startURLToShow(secretPath: Secret) -> WireText? { nil }

    public func takeRefusedConnections() -> [RefusedConnection] { [] }
}
