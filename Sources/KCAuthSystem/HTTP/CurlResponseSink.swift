/// Collects one response from libcurl's write and header callbacks.
///
/// Only ever touched by the thread running `curl_easy_perform`.
final class CurlResponseSink {
    /// OAuth/OIDC responses (tokens, discovery, JWKS) are small; a larger body means something
    /// is wrong, and the cap keeps a hostile server from exhausting memory.
    static let maxBodyBytes = 16 * 1024 * 1024

    private(set) var body: [UInt8] = []
    private(set) var headers: [String: String] = [:]
    private(set) var bodyTooLarge = false

    func appendBody(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Bool {
        guard count > 0, let data else { return true }
        guard body.count + count <= Self.maxBodyBytes else {
            bodyTooLarge = true
            return false  // libcurl aborts with CURLE_WRITE_ERROR
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) {
            body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
        }
        return true
    }

    /// libcurl hands over one complete header line at a time, status lines included.
    func appendHeaderLine(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) {
        guard count > 0, let data else { return }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
        if line.hasPrefix("HTTP/") {
            // A new status line starts a new header block (a proxy's CONNECT reply or a
            // "100 Continue" comes first); only the final response's headers count.
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingHTTPWhitespace()
        headers[name] = value  // a repeated header keeps its last value (HTTPResponse's contract)
    }
}
