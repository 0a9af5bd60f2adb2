import KCAuthCore
internal import CCurl

/// One libcurl easy handle plus everything libcurl keeps a pointer to while it runs.
///
/// libcurl does not copy pointer options (notes/swift-c-interop.md §5): the error buffer, the
/// header `curl_slist` and the callback context must stay valid until `curl_easy_cleanup`.
/// Owning them here, and freeing them in `deinit` after the cleanup, makes that lifetime explicit.
/// Used by one request on one thread only, so it needs no `Sendable` conformance.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>
    let sink = CurlResponseSink()
    private var headerList: UnsafeMutablePointer<curl_slist>?

    init() throws {
        guard let handle = kc_curl_easy_init() else {
            throw KCAuthError(.internal, "cannot create a libcurl handle")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        _ = kc_curl_set_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        kc_curl_easy_cleanup(handle)
        kc_curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// The text libcurl wrote to the error buffer, or its generic text for `code`.
    func errorText(_ code: CURLcode) -> String {
        let text = String(cString: errorBuffer)
        return text.isEmpty ? String(cString: kc_curl_easy_strerror(code)) : text
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(kc_curl_set_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: String) throws {
        try check(kc_curl_set_str(handle, option, value), option)
    }

    func setCopiedPostFields(_ body: [UInt8]) throws {
        let code = body.withUnsafeBufferPointer { buffer in
            // An empty array may have no base address; libcurl then copies zero bytes from "".
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    kc_curl_set_str(handle, CURLOPT_COPYPOSTFIELDS, $0)
                }
            } ?? kc_curl_set_str(handle, CURLOPT_COPYPOSTFIELDS, "")
        }
        try check(code, CURLOPT_COPYPOSTFIELDS)
    }

    func setHeaders(_ lines: [String]) throws {
        for line in lines {
            guard let list = kc_curl_slist_append(headerList, line) else {
                throw KCAuthError(.internal, "cannot build the HTTP header list")
            }
            headerList = list
        }
        if headerList != nil { try check(kc_curl_set_slist(handle, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER) }
    }

    /// Routes body and header bytes into `sink`. The callbacks capture nothing, so they convert
    /// to `@convention(c)`; the sink travels as an unretained pointer that `self` keeps alive.
    func installSink() throws {
        let context = Unmanaged.passUnretained(sink).toOpaque()
        try check(kc_curl_set_write_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let sink = Unmanaged<CurlResponseSink>.fromOpaque(context!).takeUnretainedValue()
            return sink.appendBody(data, size * count) ? size * count : 0
        }, CURLOPT_WRITEFUNCTION)
        try check(kc_curl_set_ptr(handle, CURLOPT_WRITEDATA, context), CURLOPT_WRITEDATA)
        try check(kc_curl_set_write_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let sink = Unmanaged<CurlResponseSink>.fromOpaque(context!).takeUnretainedValue()
            sink.appendHeaderLine(data, size * count)
            return size * count
        }, CURLOPT_HEADERFUNCTION)
        try check(kc_curl_set_ptr(handle, CURLOPT_HEADERDATA, context), CURLOPT_HEADERDATA)
    }

    func getLong(_ info: CURLINFO, _ use: (Int) -> Void) {
        var value = 0
        if kc_curl_get_long(handle, info, &value) == CURLE_OK { use(value) }
    }

    func getOff(_ info: CURLINFO, _ use: (Int64) -> Void) {
        var value: curl_off_t = 0
        if kc_curl_get_off(handle, info, &value) == CURLE_OK { use(Int64(value)) }
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws {
        guard code == CURLE_OK else {
            throw KCAuthError(.internal, "libcurl rejected option \(option.rawValue)",
                              cause: String(cString: kc_curl_easy_strerror(code)))
        }
    }
}
