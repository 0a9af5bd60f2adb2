/// One HTTP exchange. The core builds requests; the transport (libcurl in production) moves bytes.
///
/// Synchronous on purpose: kcauth makes one request at a time, libcurl's easy interface blocks,
/// and a synchronous call keeps the `token` hot path free of the async runtime.
public protocol HTTPTransport: Sendable {
    /// Performs the request. Any HTTP status is a response; only transport failures throw
    /// (`KCAuthError.Code.network`, with a message that names the host and never the body).
    func send(_ request: HTTPRequest) throws -> HTTPResponse
}

public struct HTTPRequest: Sendable, Equatable {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }
    public var method: Method
    public var url: String
    /// Header lines in order; names as given.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?

    public init(method: Method, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.url == b.url && a.body == b.body
            && a.headers.map { "\($0.name):\($0.value)" } == b.headers.map { "\($0.name):\($0.value)" }
    }
}

public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names lower-cased; a repeated header keeps its last value.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
