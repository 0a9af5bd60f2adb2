import FoundationEssentials
import KCAuthCrypto

/// ID token validation, OpenID Connect Core §3.1.3.7 (and §3.1.3.8 for `at_hash`).
///
/// A token that fails any check is rejected as a whole: the login stores nothing.
public struct IDTokenValidator: Sendable {
    /// Clock skew tolerated on `exp` and `iat`, in seconds.
    public static let leeway: Double = 60

    let http: OAuthHTTP
    let clock: any TimeSource

    public init(http: OAuthHTTP, clock: any TimeSource) {
        self.http = http
        self.clock = clock
    }

    public struct Expectations: Sendable {
        public var issuer: String
        public var clientID: String
        public var jwksURI: String
        /// The nonce sent in the authorization request; nil on refresh (Core §12.2: no nonce there).
        public var nonce: Secret?
        /// The access token issued with the ID token, to check `at_hash` when present.
        public var accessToken: Secret?

        public init(issuer: String, clientID: String, jwksURI: String, nonce: Secret?, accessToken: Secret?) {
            self.issuer = issuer
            self.clientID = clientID
            self.jwksURI = jwksURI
            self.nonce = nonce
            self.accessToken = accessToken
        }
    }

    public func validate(_ idToken: Secret, _ expect: Expectations) throws -> IDTokenClaims {
        let jws: CompactJWS
        do { jws = try CompactJWS(idToken.reveal()) } catch { throw invalid("it is not a signed JWT", error) }
        try verifySignature(jws, jwksURI: expect.jwksURI)

        let claims: IDTokenClaims
        do { claims = try JSONDecoder().decode(IDTokenClaims.self, from: Data(jws.payload)) } catch {
            // Name the claim (e.g. "'exp' is not a time between 1970 and 9999"): the provider's
            // administrator needs to know which one.
            throw invalid("its claims are missing or malformed" + OAuthHTTP.fieldProblem(error), error)
        }
        try Self.checkClaims(claims, expect, alg: jws.header.alg, now: clock.instant)
        return claims
    }

    /// Claim checks, separated from the signature so they can be tested as a table.
    public static func checkClaims(_ c: IDTokenClaims, _ expect: Expectations, alg: String, now: Instant) throws {
        guard c.iss == expect.issuer else { throw invalid("it was issued by '\(Sanitize.oneLine(c.iss))', not '\(expect.issuer)'") }
        guard c.aud.contains(expect.clientID) else { throw invalid("its audience does not include client '\(expect.clientID)'") }
        // Core §3.1.3.7 items 4–5: with several audiences `azp` must be there, and it must be us.
        if c.aud.count > 1, c.azp == nil { throw invalid("it has several audiences but no authorized party (azp)") }
        if let azp = c.azp, azp != expect.clientID { throw invalid("its authorized party is '\(Sanitize.oneLine(azp))', not '\(expect.clientID)'") }
        guard now.seconds(since: c.exp) < leeway else { throw invalid("it expired at \(c.exp)") }
        guard c.iat.seconds(since: now) <= leeway else { throw invalid("it claims to be issued in the future (\(c.iat)); check the clock") }
        if let nonce = expect.nonce {
            guard c.nonce == nonce.reveal() else { throw invalid("its nonce does not match the login request") }
        }
        // §3.1.3.8: at_hash is the left half of SHA-256(access token) for the *256 algorithms.
        if let atHash = c.atHash, let token = expect.accessToken, alg.hasSuffix("256") {
            let digest = SHA256.hash(Array(token.reveal().utf8))
            guard Base64URL.encode(Array(digest.prefix(16))) == atHash else {
                throw invalid("its at_hash does not match the access token")
            }
        }
    }

    /// Chooses the key by `kid`, `use` and `alg`; when no key fits, fetches the JWKS once more in
    /// case the provider rotated its keys since the first fetch.
    private func verifySignature(_ jws: CompactJWS, jwksURI: String) throws {
        guard JWSAlgorithm(rawValue: jws.header.alg) != nil else {
            throw Self.invalid("it is signed with '\(Sanitize.oneLine(jws.header.alg))', which kcauth does not accept (RS256, PS256, ES256 and their larger variants only)")
        }
        var keys = JWSVerifier.candidateKeys(for: jws.header, in: try fetchKeys(jwksURI))
        http.trace.emit(TraceEvent("jwks.keys", ("kid", .text(jws.header.kid ?? "-")), ("alg", .text(jws.header.alg)),
                                   ("matching", .int(keys.count)), ("cached", .flag(false))))
        if keys.isEmpty {
            // The provider may have rotated its keys since the set was fetched: once more.
            http.trace.emit(TraceEvent("jwks.refetch", ("reason", .text("no key matches the ID token's kid and alg"))))
            keys = JWSVerifier.candidateKeys(for: jws.header, in: try fetchKeys(jwksURI))
        }
        guard !keys.isEmpty else {
            throw Self.invalid("no signing key with id '\(Sanitize.oneLine(jws.header.kid ?? "-"))' is published at \(jwksURI)")
        }
        var lastError: Error?
        for key in keys {
            do {
                try JWSVerifier.verify(jws, with: key)
                return
            } catch {
                lastError = error
            }
        }
        throw Self.invalid("its signature does not verify against the provider's keys", lastError)
    }

    private func fetchKeys(_ uri: String) throws -> JWKSet {
        try http.getJSON(JWKSet.self, from: uri, what: "the provider's key set (JWKS)", publicDocument: true)
    }

    private func invalid(_ why: String, _ cause: Error? = nil) -> KCAuthError { Self.invalid(why, cause) }

    static func invalid(_ why: String, _ cause: Error? = nil) -> KCAuthError {
        KCAuthError(.invalidIDToken, "the ID token was rejected: \(why)", cause: cause.map { "\($0)" })
    }
}
