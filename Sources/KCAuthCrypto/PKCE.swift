/// Proof Key for Code Exchange (RFC 7636).
public enum PKCE {
    /// The S256 `code_challenge` for `verifier` (RFC 7636 §4.2):
    /// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))`.
    public static func challenge(forVerifier verifier: String) -> String {
        Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
    }
}
