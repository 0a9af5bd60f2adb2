internal import CCurl
internal import CLibSecret
import KCAuthCore
import KCAuthCrypto

/// The libraries kcauth loads at run time, each as it says of itself: what a bug report needs
/// is the library that runs, not the headers kcauth was built with.
enum LoadedLibraries {
    static func all() -> [HostFacts.Library] { [curl(), openSSL(), libsecret(), zlib()] }

    /// `curl_version_info(CURLVERSION_NOW)`: libcurl's version, its TLS library's and zlib's.
    static func curl() -> HostFacts.Library {
        guard CurlGlobal.initialized, let info = kc_curl_version_info() else {
            return HostFacts.Library(name: "libcurl", unavailable: String(cString: kc_curl_load_error()))
        }
        func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        var details: [(String, String)] = []
        if let ssl = text(info.pointee.ssl_version) { details.append(("TLS", ssl)) }
        if let z = text(info.pointee.libz_version) { details.append(("zlib", z)) }
        if let host = text(info.pointee.host) { details.append(("host", host)) }
        return HostFacts.Library(name: "libcurl", version: text(info.pointee.version), details: details)
    }

    /// libcrypto's `OpenSSL_version`.
    static func openSSL() -> HostFacts.Library {
        guard let version = OpenSSLLibrary.version else {
            return HostFacts.Library(name: "OpenSSL (libcrypto)", unavailable: OpenSSLLibrary.loadError)
        }
        return HostFacts.Library(name: "OpenSSL (libcrypto)", version: version,
                                 details: OpenSSLLibrary.directory.map { [("directory", $0)] } ?? [])
    }

    /// libsecret says no version of its own: the file it was loaded from names it, and GLib's
    /// version is its dependency's. Reported only when this process loaded it (for a profile
    /// whose session is in the keyring: doctor's keyring checks load it); never loaded here.
    static func libsecret() -> HostFacts.Library {
        guard let path = kc_secret_library_path() else {
            return HostFacts.Library(name: "libsecret")
        }
        var details: [(String, String)] = []
        var (major, minor, micro): (UInt32, UInt32, UInt32) = (0, 0, 0)
        if kc_secret_glib_version(&major, &minor, &micro) == 1 { details.append(("GLib", "\(major).\(minor).\(micro)")) }
        return HostFacts.Library(name: "libsecret", file: String(cString: path), details: details)
    }

    /// zlib's `zlibVersion` (the bundle's own compression).
    static func zlib() -> HostFacts.Library {
        let (version, error) = Gzip.version
        return HostFacts.Library(name: "zlib", version: version, unavailable: error)
    }
}
