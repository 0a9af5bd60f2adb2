internal import COpenSSL

/// The libcrypto this process runs with, as it names itself (`doctor --bundle`): the loaded
/// library's version, not the headers kcauth was built with.
public enum OpenSSLLibrary {
    /// `OpenSSL_version(OPENSSL_VERSION)`, e.g. "OpenSSL 3.0.15 3 Sep 2024"; nil when libcrypto
    /// cannot be loaded (``loadError`` says why).
    public static var version: String? {
        kc_OpenSSL_version(OPENSSL_VERSION).map { String(cString: $0) }
    }

    /// Where libcrypto's modules and configuration come from (`OPENSSL_DIR`), nil as above.
    public static var directory: String? {
        kc_OpenSSL_version(OPENSSL_DIR).map { String(cString: $0) }
    }

    public static var loadError: String { String(cString: kc_crypto_load_error()) }
}
