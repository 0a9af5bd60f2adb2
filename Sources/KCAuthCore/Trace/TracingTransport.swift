/// The HTTP seam with a trace: each request when it leaves (so a request that hangs is seen) and
/// its answer — method, URL, status, time, headers, the form and the JSON body — with every
/// secret redacted by its type (``HTTPRequest`` is built from typed parts) and the answer shown
/// by an allow-list (``TracedJSON``).
public struct TracingTransport: HTTPTransport {
    let base: any HTTPTransport
    let trace: any TraceSink
    let clock: any TimeSource

    public init(_ base: any HTTPTransport, trace: any TraceSink, clock: any TimeSource) {
        self.base = base
        self.trace = trace
        self.clock = clock
    }

    /// Answer headers shown as they are; any other is redacted (a `Set-Cookie`, a `Location`
    /// that could carry a code).
    static let shownHeaders: Set<String> = [
        "content-type", "content-length", "date", "cache-control", "pragma", "www-authenticate", "dpop-nonce", "retry-after",
        "server", "via", "x-request-id", "x-correlation-id", "connection", "vary", "referrer-policy", "x-frame-options",
        "x-content-type-options", "strict-transport-security", "content-security-policy", "x-xss-protection",
        "cross-origin-opener-policy", "cross-origin-resource-policy", "access-control-allow-origin", "expires", "last-modified",
        "etag", "age", "allow",
    ]

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var fields: [TraceField] = [TraceField("method", .text(request.method.rawValue)), TraceField("url", .wire(request.url))]
        if !request.headers.isEmpty {
            fields.append(TraceField("headers", .fields(request.headers.map { TraceField($0.name, TracedJSON.wire($0.value)) })))
        }
        if let form = request.form {
            fields.append(TraceField("form", .fields(form.map { TraceField($0.name, TracedJSON.wire($0.value)) })))
        }
        trace.record(TraceEvent("http.request", fields))
        let start = clock.now()
        let response: HTTPResponse
        do {
            response = try base.send(request)
        } catch {
            trace.record(TraceEvent("http.failed", ("method", .text(request.method.rawValue)), ("url", .wire(request.url)),
                                    ("ms", .milliseconds(clock.now() - start)), ("error", .text(KCAuthError.wrapping(error).message))))
            throw error
        }
        var answer: [TraceField] = [
            TraceField("method", .text(request.method.rawValue)), TraceField("url", .wire(request.url)),
            TraceField("status", .int(response.status)), TraceField("ms", .milliseconds(clock.now() - start)),
        ]
        let headers = response.headers.sorted { $0.key < $1.key }.map { name, value in
            TraceField(name, Self.shownHeaders.contains(name) ? .text(value) : .secret(Secret(name == "set-cookie" ? .cookie : .value, value)))
        }
        if !headers.isEmpty { answer.append(TraceField("headers", .fields(headers))) }
        if let body = TracedJSON.body(response.body, contentType: response.header("content-type"), whole: request.answerHoldsNoSecret) {
            answer.append(TraceField("body", body))
        }
        trace.record(TraceEvent("http.response", answer))
        return response
    }
}
