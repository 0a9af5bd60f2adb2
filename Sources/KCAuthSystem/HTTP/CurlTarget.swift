internal import CCurl
import Glibc
import KCAuthCore

/// Scheme, host and port of a URL, parsed by libcurl's own URL parser (so IPv6 literals,
/// user info and default ports come out exactly as libcurl will connect).
struct CurlTarget {
    var scheme = "?"
    var host = "(unknown host)"
    var port: String?
    /// Whether libcurl could parse the URL at all.
    var parsed = false

    var hostPort: String { port.map { "\(host):\($0)" } ?? host }

    init(url: String) {
        guard let handle = kc_curl_url() else { return }
        defer { kc_curl_url_cleanup(handle) }
        guard kc_curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else { return }
        parsed = true
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var out: UnsafeMutablePointer<CChar>?
            guard kc_curl_url_get(handle, which, &out, flags) == CURLUE_OK, let out else { return nil }
            defer { kc_curl_free(out) }
            return String(cString: out)
        }
        scheme = part(CURLUPART_SCHEME) ?? scheme
        host = part(CURLUPART_HOST) ?? host
        port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT))
    }
}
