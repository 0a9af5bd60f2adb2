internal import CCurl
import KCAuthCore

/// `curl_global_init` must run once, before the first handle (notes §5). A `static let` is
/// initialised exactly once, thread-safely, by the Swift runtime.
enum CurlGlobal {
    /// libcurl is loaded here, on the first request, not at start-up (see CCurl.h).
    static let initialized: Bool = kc_curl_load() == 1 && kc_curl_global_init(KC_CURL_GLOBAL_DEFAULT) == CURLE_OK

    static func ensureInitialized() throws {
        guard initialized else {
            let why = String(cString: kc_curl_load_error())
            throw KCAuthError(.internal, "cannot load libcurl" + (why.isEmpty ? "" : ": \(why)"),
                              hint: "install the libcurl4 package")
        }
    }
}
