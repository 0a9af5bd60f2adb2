internal import COpenSSL

/// OpenSSL's per-thread error queue.
///
/// Clear it before an operation and drain it after a failure, so that the text kept as a
/// ``CryptoError/cause`` belongs to that failure and not to an earlier, unrelated one.
enum OpenSSLErrorQueue {
    static func clear() {
        kc_ERR_clear_error()
    }

    /// All queued errors, oldest first, joined by "; ", or nil when the queue is empty.
    /// Empties the queue.
    /// When libcrypto could not be loaded (COpenSSL loads it on first use), that is the error.
    static func drain() -> String? {
        if let failure = kc_crypto_load_error() { return String(cString: failure) }
        var lines: [String] = []
        var code = kc_ERR_get_error()
        while code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            kc_ERR_error_string_n(code, &buffer, buffer.count)
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            lines.append(String(decoding: bytes, as: UTF8.self))
            code = kc_ERR_get_error()
        }
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
    }
}
