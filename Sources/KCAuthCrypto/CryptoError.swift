/// The one error type KCAuthCrypto throws.
///
/// `code` is stable and meant for branching; `message` is a short English sentence that never
/// contains key material or token text (tokens are credentials); `cause` carries OpenSSL's
/// error-queue text when the library itself failed.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, coarsely.
    public enum Code: String, Sendable {
        /// The input is not a well-formed compact JWS (RFC 7515 §7.1) or JOSE header.
        case malformed
        /// The JWS `alg` is `none`, an HMAC algorithm, or anything else outside ``JWSAlgorithm``.
        case unsupportedAlgorithm
        /// The JWK cannot be turned into a public key, or does not fit the algorithm.
        case invalidKey
        /// The signature does not verify.
        case badSignature
        /// OpenSSL failed unexpectedly; see `cause`.
        case library
    }

    public var code: Code
    public var message: String
    public var cause: String?

    public init(code: Code, message: String, cause: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public var description: String {
        guard let cause else { return "\(message) [\(code.rawValue)]" }
        return "\(message) [\(code.rawValue)]: \(cause)"
    }
}

extension CryptoError {
    static func malformed(_ message: String) -> CryptoError { CryptoError(code: .malformed, message: message) }
    static func invalidKey(_ message: String) -> CryptoError { CryptoError(code: .invalidKey, message: message) }
    static func badSignature(_ message: String) -> CryptoError { CryptoError(code: .badSignature, message: message) }

    /// A `.library` error whose cause is whatever OpenSSL left on this thread's error queue.
    static func library(_ message: String) -> CryptoError {
        CryptoError(code: .library, message: message, cause: OpenSSLErrorQueue.drain())
    }
}
