internal import FoundationEssentials


/// A JWS in Compact Serialization (RFC 7515 §7.1), parsed but not yet verified.
public struct CompactJWS: Sendable {
    public let header: JOSEHeader
    /// The decoded payload bytes (for an ID token, the JSON claims).
    public let payload: [UInt8]
    /// The JWS Signing Input (RFC 7515 §5.2): the ASCII of `<header>.<payload>` exactly as
    /// received. Never re-encoded, since any other spelling would not verify.
    public let signingInput: [UInt8]
    public let signature: [UInt8]

    /// Parses `compact`. Throws ``CryptoError`` `.malformed` unless it has exactly three
    /// base64url parts and a JSON-object header with a string `alg`; the signature part may be
    /// empty (so that `alg: none` is reported as unsupported, not malformed). A header with
    /// `crit` is rejected: we understand no extensions (RFC 7515 §4.1.11).
    /// Error messages never quote the token.
    public init(_ compact: String) throws {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw CryptoError.malformed("a compact JWS has 3 dot-separated parts, this has \(parts.count)")
        }
        guard let headerBytes = Base64URL.decode(String(parts[0])) else {
            throw CryptoError.malformed("the JWS header is not base64url")
        }
        guard let payload = Base64URL.decode(String(parts[1])) else {
            throw CryptoError.malformed("the JWS payload is not base64url")
        }
        guard let signature = Base64URL.decode(String(parts[2])) else {
            throw CryptoError.malformed("the JWS signature is not base64url")
        }
        self.header = try JOSEHeader(json: headerBytes)
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    }
}

extension JOSEHeader {
    private struct Wire: Decodable {
        var alg: String
        var kid: String?
        var typ: String?
        var crit: [String]?
    }

    init(json: [UInt8]) throws {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(json))
        } catch {
            throw CryptoError.malformed("the JWS header is not a JSON object with a string \"alg\"")
        }
        guard wire.crit == nil else {
            throw CryptoError.malformed("the JWS header lists critical extensions (\"crit\"), none of which are supported")
        }
        self.init(alg: wire.alg, kid: wire.kid, typ: wire.typ)
    }
}
