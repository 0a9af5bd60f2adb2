internal import CZlib
import KCAuthCore

/// gzip (RFC 1952) through the system's zlib, loaded on first use (CZlib).
enum Gzip {
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: kc_gzip_bound(bytes.count))
        let capacity = out.count
        let length = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { kc_gzip(input.baseAddress, input.count, $0.baseAddress, capacity) }
        }
        guard length >= 0 else {
            let why = kc_zlib_load() == 0 ? String(cString: kc_zlib_load_error()) : "zlib could not compress the archive"
            throw KCAuthError(.internal, "cannot compress the bundle: \(why)")
        }
        return Array(out.prefix(length))
    }

    /// The loaded zlib's version; nil (and why) when it cannot be loaded.
    static var version: (String?, String?) {
        guard let version = kc_zlib_version() else { return (nil, String(cString: kc_zlib_load_error())) }
        return (String(cString: version), nil)
    }
}
