/// One HTTP exchange. The core builds requests; the transport (libcurl in production) moves bytes.
///
/// Synchronous on purpose: kcauth makes one request at a time, libcurl's easy interface blocks,
/// and a synchronous call keeps the `token` hot path free of the async runtime.
public protocol HTTPTransport: Sendable {
    /// Performs the request. Any HTTP status is a response; only transport failures throw
    /// (`KCAuthError.Code.network`, with a message that names the host and never the body).
    func send(_ request: HTTPRequest) throws -> HTTPResponse
}
