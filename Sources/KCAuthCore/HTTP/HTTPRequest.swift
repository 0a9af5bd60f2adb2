/// One HTTP request, built from typed parts: a URL, headers and a form whose values are plain or
/// ``Secret``s (``WireText``). The transport takes the real text out at the wire (``WireText/reveal()``);
/// everything else — a trace, a message — sees the secrets redacted.
public struct HTTPRequest: Sendable, Equatable {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }
    public var method: Method
    public var url: WireText
    /// Header lines in order; names as given.
    public var headers: [(name: String, value: WireText)]
    /// The body: every body kcauth sends is a form (`application/x-www-form-urlencoded`).
    public var form: [FormField]?
    /// The answer holds no secret — a public document (discovery, a key set), claims about the
    /// person (userinfo, as the ID token's may be shown) —: a trace shows it whole.
    public var answerHoldsNoSecret = false

    public init(method: Method, url: WireText, headers: [(name: String, value: WireText)] = [], form: [FormField]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.form = form
    }

    /// The body's bytes, for the wire.
    public func revealBody() -> [UInt8]? { form.map { Array($0.encoded.reveal().utf8) } }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.url == b.url && a.form == b.form && a.answerHoldsNoSecret == b.answerHoldsNoSecret
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }
}
