import KCAuthCrypto

/// The code of the ``CryptoError`` that verifying `token` with `key` throws, or nil if it verifies.
/// Any other error is reported as `.library` so that a test expecting a code fails loudly.
func verificationFailure(_ token: String, with key: JWK) -> CryptoError.Code? {
    do {
        try JWSVerifier.verify(CompactJWS(token), with: key)
        return nil
    } catch let error as CryptoError {
        return error.code
    } catch {
        return .library
    }
}

/// The code of the ``CryptoError`` that parsing `token` throws, or nil if it parses.
func parseFailure(_ token: String) -> CryptoError.Code? {
    do {
        _ = try CompactJWS(token)
        return nil
    } catch let error as CryptoError {
        return error.code
    } catch {
        return .library
    }
}

/// The three dot-separated parts of a compact JWS.
func parts(_ token: String) -> [String] {
    token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
}

/// `token` with its payload replaced, keeping the original header and signature.
func replacingPayload(of token: String, with claims: String) -> String {
    let p = parts(token)
    return [p[0], Base64URL.encode(Array(claims.utf8)), p[2]].joined(separator: ".")
}

/// `token` with its signature replaced by `transform(signature)`.
func replacingSignature(of token: String, _ transform: ([UInt8]) -> [UInt8]) -> String {
    let p = parts(token)
    return [p[0], p[1], Base64URL.encode(transform(Base64URL.decode(p[2]) ?? []))].joined(separator: ".")
}

/// `token` with its header replaced by `header` (JSON text), keeping payload and signature.
func replacingHeader(of token: String, with header: String) -> String {
    let p = parts(token)
    return [Base64URL.encode(Array(header.utf8)), p[1], p[2]].joined(separator: ".")
}

extension JWK {
    /// A copy with some members changed, for "this key does not fit" cases.
    func with(_ change: (inout JWK) -> Void) -> JWK {
        var copy = self
        change(&copy)
        return copy
    }
}
