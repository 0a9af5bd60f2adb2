/// Receives the authorization response on a loopback redirect URI (RFC 8252 §7.3).
public protocol RedirectReceiver: Sendable {
    /// Binds the listener (127.0.0.1 only; `port` 0 = ephemeral) and returns it, ready to accept.
    func bind(port: UInt16) throws -> any BoundRedirectListener
}

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
    func startURL(redirectingTo location: String, secretPath: String) -> String

    /// Stops listening; idempotent.
    func close()
}

/// The query of one request to the callback path, decoded.
public struct CallbackRequest: Sendable, Equatable {
    public var parameters: [String: String]
    public init(parameters: [String: String]) { self.parameters = parameters }
    public subscript(_ name: String) -> String? { parameters[name] }
}

/// What to answer a callback request with, and whether to stop listening.
public enum CallbackVerdict: Sendable, Equatable {
    /// Answer with this page and keep waiting (e.g. a request with the wrong `state`).
    case keepWaiting(LandingPage)
    /// Answer with this page and stop: `receive` returns this request.
    case finish(LandingPage)
}

/// A small self-contained HTML page for the browser.
public struct LandingPage: Sendable, Equatable {
    public var status: Int
    public var html: String
    public init(status: Int, html: String) {
        self.status = status
        self.html = html
    }
}
