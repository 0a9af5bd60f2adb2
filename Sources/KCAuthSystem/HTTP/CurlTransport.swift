import KCAuthCore
internal import CCurl

/// `HTTPTransport` over libcurl's easy interface.
///
/// Why libcurl directly (notes/performance.md §5): it is the only Linux client that honours a
/// private CA file, the proxy environment, and fails fast on a refused connection, at about 10 ms
/// per process. One easy handle per request keeps the class free of shared mutable state, so it
/// is `Sendable` without `@unchecked`.
///
/// Policy, for OAuth endpoints:
/// - only `http` and `https` (`CURLOPT_PROTOCOLS_STR`);
/// - redirects are never followed: a token endpoint that redirects is misconfigured, and
///   following would re-send credentials elsewhere (RFC 6749 §3.2 names no redirect);
/// - proxy variables are left to libcurl's defaults (`https_proxy`, `no_proxy`, …);
/// - `CURLOPT_NOSIGNAL`: timeouts must never use signals in a multi-threaded process.
///
/// Bodies and tokens are never logged; errors name only the host.
public final class CurlTransport: HTTPTransport {
    private let caFile: String?
    private let connectTimeout: Double
    private let totalTimeout: Double
    private let userAgent: String

    /// - Parameters:
    ///   - caFile: a PEM bundle to trust instead of the system's (`--ca-file`).
    ///   - connectTimeout: seconds for name resolution, TCP connect and TLS handshake.
    ///   - totalTimeout: seconds for the whole exchange.
    public init(caFile: String? = nil, connectTimeout: Double = 10, totalTimeout: Double = 30,
                userAgent: String = "kcauth") {
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.userAgent = userAgent
        // Run curl_global_init as early as the composition root builds the transport, i.e.
        // normally before other threads exist (libcurl 7.84+ also makes it thread-safe).
        _ = CurlGlobal.initialized
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try CurlGlobal.ensureInitialized()
        let easy = try CurlEasy()
        // `easy` owns the error buffer, the header list and the response sink; all three must
        // outlive curl_easy_perform, and `deinit` frees them only after curl_easy_cleanup.
        try configure(easy, for: request)
        let code = kc_curl_easy_perform(easy.handle)
        guard code == CURLE_OK else {
            throw CurlFailure(code: code, easy: easy, url: request.url.redacted, caFile: caFile,
                              connectTimeout: connectTimeout, totalTimeout: totalTimeout).error
        }
        var status = 0
        easy.getLong(CURLINFO_RESPONSE_CODE) { status = $0 }
        return HTTPResponse(status: status, headers: easy.sink.headers, body: easy.sink.body)
    }

    /// The wire: the request's secrets are revealed here, into libcurl, and nowhere else.
    private func configure(_ easy: CurlEasy, for request: HTTPRequest) throws {
        try easy.set(CURLOPT_URL, request.url.reveal())
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_FOLLOWLOCATION, 0)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout))
        try easy.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(totalTimeout))
        try easy.set(CURLOPT_USERAGENT, userAgent)
        if let caFile { try easy.set(CURLOPT_CAINFO, caFile) }

        var lines = request.headers.map { header in
            // "Name;" is libcurl's spelling of a header with an empty value ("Name:" removes it).
            header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value.reveal())"
        }
        switch request.method {
        case .get:
            try easy.set(CURLOPT_HTTPGET, 1)
        case .post:
            let body = request.revealBody() ?? []
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE, body.count)
            // COPYPOSTFIELDS copies the bytes now, so no buffer has to outlive this call.
            try easy.setCopiedPostFields(body)
            // An empty "Expect:" stops libcurl from waiting up to 1 s for "100 Continue"
            // (RFC 9110 §10.1.1) before sending a larger body.
            lines.append("Expect:")
        }
        try easy.setHeaders(lines)
        try easy.installSink()
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        max(1, Int((seconds * 1000).rounded()))
    }
}
