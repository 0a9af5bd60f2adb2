internal import COpenSSL

/// SHA-256 (FIPS 180-4), as used by PKCE S256 (RFC 7636 §4.2) and RS256/PS256/ES256.
public enum SHA256 {
    /// The 32-byte SHA-256 digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                kc_EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, kc_EVP_sha256(), nil)
            }
        }
        // EVP_Digest over a built-in digest fails only when memory allocation fails.
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed: \(OpenSSLErrorQueue.drain() ?? "no error queued")")
        return digest
    }
}
