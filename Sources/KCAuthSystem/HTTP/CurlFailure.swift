import Glibc
import KCAuthCore
internal import CCurl

/// Turns a failed `curl_easy_perform` into one readable `KCAuthError` line that names the host
/// (never the path or query, which may carry codes) and keeps libcurl's own text as the cause.
struct CurlFailure {
    let error: KCAuthError

    init(code: CURLcode, easy: CurlEasy, url: String, caFile: String?,
         connectTimeout: Double, totalTimeout: Double) {
        let cause = easy.errorText(code)
        let target = CurlTarget(url: url)
        let host = target.host
        let hostPort = target.hostPort

        // libcurl does not tell whether a proxy was in the way (CURLINFO_USED_PROXY needs
        // 8.7), and its error text names the proxy, not the host: point at the variable instead.
        let proxyVariable = Self.proxyVariable(scheme: target.scheme)
        let proxyHint = proxyVariable.map {
            "$\($0) is set: unless $no_proxy excludes \(host), the request went through that proxy"
        }
        // What the same request may get past on another try: the network or the provider was
        // away for a moment (a poll keeps going). Not a certificate, a URL or a CA file.
        let transient = [CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
                         CURLE_OPERATION_TIMEDOUT, CURLE_SSL_CONNECT_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR,
                         CURLE_RECV_ERROR, CURLE_PARTIAL_FILE].contains(code)
        func network(_ message: String, hint: String? = nil, remedy: KCAuthError.Remedy? = nil) -> KCAuthError {
            var error = KCAuthError(.network, message, hint: hint ?? proxyHint, cause: cause, remedy: remedy)
            error.transient = transient
            return error
        }

        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            // The typed cause: doctor and the CLI phrase it (a proxy in the way is said first).
            error = network("cannot resolve host \(host)", remedy: .checkHostName(host: host))
        case CURLE_COULDNT_RESOLVE_PROXY:
            error = network("cannot resolve the proxy for \(host)", hint: "check $\(proxyVariable ?? "https_proxy")")
        case CURLE_COULDNT_CONNECT:
            var osErrno = 0
            easy.getLong(CURLINFO_OS_ERRNO) { osErrno = $0 }
            error = network("cannot connect to \(hostPort): \(Self.describe(errno: Int32(osErrno)))",
                            hint: proxyHint ?? "check that the provider is running and that the issuer URL names the right host and port")
        case CURLE_OPERATION_TIMEDOUT:
            // Which limit fired: the connect limit covers DNS, TCP and TLS; if the transfer
            // stopped well before the total limit, it was the connect limit.
            var elapsedMicros: Int64 = 0
            easy.getOff(CURLINFO_TOTAL_TIME_T) { elapsedMicros = $0 }
            let elapsed = Double(elapsedMicros) / 1_000_000
            if connectTimeout < totalTimeout && elapsed < totalTimeout - 0.25 {
                error = network("timed out after \(humanSeconds(connectTimeout)) s connecting to \(hostPort)",
                                hint: proxyHint ?? "check the network; a firewall may be dropping the connection")
            } else {
                error = network("timed out after \(humanSeconds(totalTimeout)) s waiting for \(hostPort)",
                                remedy: .retryOrCheckProvider)
            }
        case CURLE_PEER_FAILED_VERIFICATION:
            error = Self.untrusted(host: host, cause: cause, caFile: caFile)
        case CURLE_SSL_CACERT_BADFILE:
            // A bad --ca-file is the user's configuration, not the network.
            error = KCAuthError(.configuration, "cannot use CA file \(caFile ?? "(system default)")",
                                cause: cause, remedy: .readableCAFile)
        case CURLE_SSL_CONNECT_ERROR:
            error = network("TLS handshake with \(hostPort) failed")
        case CURLE_UNSUPPORTED_PROTOCOL:
            error = KCAuthError(.configuration, "refusing URL with scheme \"\(target.scheme)\": only http and https are allowed",
                                cause: cause)
        case CURLE_URL_MALFORMAT:
            error = KCAuthError(.configuration, target.parsed ? "malformed URL for host \(host)" : "malformed URL",
                                cause: cause)
        case CURLE_GOT_NOTHING:
            error = network("\(hostPort) closed the connection without a response")
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            error = network("connection to \(hostPort) failed during the exchange")
        case CURLE_WRITE_ERROR where easy.sink.bodyTooLarge:
            error = network("response from \(host) is larger than \(CurlResponseSink.maxBodyBytes / 1024 / 1024) MiB")
        default:
            error = network("request to \(hostPort) failed: \(String(cString: kc_curl_easy_strerror(code)))")
        }
    }

    private static func untrusted(host: String, cause: String, caFile: String?) -> KCAuthError {
        if cause.contains("subject name") || cause.contains("does not match") {
            return KCAuthError(.network, "TLS certificate of \(host) does not match the host name", cause: cause)
        }
        if cause.contains("expired") {
            return KCAuthError(.network, "TLS certificate of \(host) has expired", cause: cause)
        }
        return KCAuthError(.network, "TLS certificate of \(host) is not trusted", cause: cause, remedy: .checkCA(host: host, caFile: caFile))
    }

    /// The proxy variable libcurl reads for `scheme`. Lower-case `http_proxy` only: libcurl
    /// ignores `HTTP_PROXY` by design (the "httpoxy" rule, CVE-2016-5385).
    static func proxyVariable(scheme: String) -> String? {
        let names = scheme.lowercased() == "https"
            ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
            : ["http_proxy", "all_proxy", "ALL_PROXY"]
        return names.first { name in getenv(name).map { $0.pointee != 0 } ?? false }
    }

    static func describe(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ETIMEDOUT: return "connection timed out"
        case ENETUNREACH: return "network is unreachable"
        case EHOSTUNREACH: return "host is unreachable"
        case 0: return "connection failed"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}


/// "30" for 30.0, "0.3" for 0.3: seconds as a person writes them.
func humanSeconds(_ seconds: Double) -> String {
    if seconds == seconds.rounded() && abs(seconds) < 1e15 { return String(Int(seconds)) }
    return String((seconds * 100).rounded() / 100)
}
