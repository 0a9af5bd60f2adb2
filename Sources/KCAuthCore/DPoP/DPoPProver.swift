import FoundationEssentials
import KCAuthCrypto

/// Makes DPoP proofs (RFC 9449 §4.2) with a session's key, and remembers what servers said
/// about them within this process: their nonces (§8, §9) and how far their clock is from ours.
public struct DPoPProver: Sendable {
    public let key: DPoPKey
    let clock: any TimeSource
    let random: any RandomSource
    let memory: DPoPMemory

    public init(key: DPoPKey, clock: any TimeSource, random: any RandomSource) {
        self.key = key
        self.clock = clock
        self.random = random
        memory = DPoPMemory()
    }

    /// The claims of §4.2, in the order the RFC lists them.
    struct Claims: Encodable {
        var jti: String
        var htm: String
        var htu: String
        var iat: Int
        var ath: String?
        var nonce: String?
    }

    /// A proof for one request: `method` and `url` as sent (the query and fragment are left out
    /// of `htu`, §4.2), `accessToken` when the request presents one (`ath`, §4.2 and §7).
    public func proof(method: String, url: String, accessToken: Secret? = nil) throws -> Secret {
        let target = Self.targetURI(url)
        let claims = Claims(
            // §4.2: a unique identifier; 16 random bytes make a collision practically impossible.
            jti: Base64URL.encode(try random.bytes(16)),
            htm: method, htu: target,
            // §11.1: the server judges freshness by `iat`; when its clock is known to differ, its
            // clock is the one that counts.
            iat: Int((clock.now() + memory.clockOffset).rounded(.down)),
            ath: accessToken.map { Base64URL.encode(SHA256.hash(Array($0.reveal().utf8))) },
            nonce: memory.nonce(for: Self.origin(of: url)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            return Secret(.dpopProof, try key.signer.sign(payload: Array(try encoder.encode(claims)), type: "dpop+jwt", jwk: key.jwk))
        } catch let error as CryptoError {
            throw KCAuthError(.internal, "cannot sign a DPoP proof: \(error.message)")
        }
    }

    /// What a response says for the next proof to the same server (§8.1, §9: `DPoP-Nonce` may
    /// come with any answer; the clock by the `Date` header), and whether the request should be
    /// sent once more: the server asked for a nonce (`use_dpop_nonce`), or refused the proof
    /// while its clock is far from ours.
    public func learn(from response: HTTPResponse, url: String, usedNonce: String?) -> Bool {
        let origin = Self.origin(of: url)
        let error = Self.proofError(response)
        var retry = false
        if let nonce = response.header("dpop-nonce"), !nonce.isEmpty, nonce.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            memory.setNonce(nonce, for: origin)
            retry = error == "use_dpop_nonce" && nonce != usedNonce
        }
        if error == "invalid_dpop_proof" || error == "use_dpop_nonce",
           let date = response.header("date").flatMap(HTTPDate.parse) {
            let offset = date - clock.now()
            // Providers accept proofs within a window of a minute or so; a clock further off
            // than this fails every proof until corrected.
            if abs(offset) >= Self.skewWorthCorrecting, abs(offset - memory.clockOffset) >= Self.skewWorthCorrecting {
                memory.setClockOffset(offset)
                retry = true
            }
        }
        return retry
    }

    static let skewWorthCorrecting: Double = 30

    /// The DPoP error of an answer: the OAuth error of a token endpoint (§5), or the
    /// `WWW-Authenticate: DPoP error="…"` of a resource (§7.1, §9).
    static func proofError(_ response: HTTPResponse) -> String? {
        if response.status == 400, let oauth = OAuthHTTP.oauthError(response) { return oauth.error }
        if response.status == 401, let challenge = response.header("www-authenticate") {
            for code in ["use_dpop_nonce", "invalid_dpop_proof"] where challenge.contains("error=\"\(code)\"") { return code }
        }
        return nil
    }

    /// `htu` (§4.2): the URI without query and fragment.
    static func targetURI(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }

    /// Nonces are per server (§8: the authorization server's, §9: each resource server's):
    /// scheme, host and port, lower-cased.
    static func origin(of url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url.lowercased() }
        let rest = url[scheme.upperBound...]
        return (url[..<scheme.upperBound] + rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }).lowercased()
    }

    /// The nonce a proof to `url` would carry now.
    public func nonce(for url: String) -> String? { memory.nonce(for: Self.origin(of: url)) }
}
