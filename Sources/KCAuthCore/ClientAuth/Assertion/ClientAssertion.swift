import FoundationEssentials
import KCAuthCrypto

/// A client assertion kcauth signs itself (RFC 7523 §2.2 and §3; OpenID Connect Core §9,
/// `private_key_jwt`): a short-lived, single-use JWT whose issuer and subject are the client.
public enum ClientAssertion {
    /// Long enough for a slow token request, short enough that a leaked assertion is useless
    /// soon. RFC 7523 §3 leaves it to us; Keycloak rejects assertions that live too long.
    public static let lifetime: Double = 60

    /// The claims, as compact JSON with sorted keys:
    /// - `iss` = `sub` = the client id (RFC 7523 §3 items 1–2, OIDC Core §9);
    /// - `aud` = the token endpoint URL: OIDC Core §9 says so, and some providers accept
    ///   nothing else (the issuer is accepted by many, but not all);
    /// - `jti` unique per assertion, so that the provider can refuse a replay (RFC 7523 §3 item 7);
    /// - `iat` now, `exp` now + ``lifetime``, whole seconds.
    public static func claims(clientID: String, audience: String, jti: String, now: Double) throws -> [UInt8] {
        guard now.isFinite, now > 0, now < 1e11 else {
            throw KCAuthError(.internal, "the system clock reads an impossible time; cannot date a client assertion")
        }
        let issuedAt = Int64(now.rounded(.down))
        let claims = Claims(iss: clientID, sub: clientID, aud: audience, jti: jti,
                            iat: issuedAt, exp: issuedAt + Int64(lifetime))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(claims))
        } catch {
            throw KCAuthError(.internal, "cannot encode the client assertion's claims", cause: "\(error)")
        }
    }

    /// A fresh signed assertion: new `jti` from `random` (128 bits), dated by `clock`.
    public static func make(signer: JWSSigner, clientID: String, audience: String,
                            clock: any TimeSource, random: any RandomSource) throws -> Secret {
        let jti = Base64URL.encode(try random.bytes(16))
        let payload = try claims(clientID: clientID, audience: audience, jti: jti, now: clock.now())
        do {
            return Secret(.clientAssertion, try signer.sign(payload: payload))
        } catch let error as CryptoError {
            throw KCAuthError(.internal, "cannot sign the client assertion", cause: error.description)
        }
    }

    private struct Claims: Encodable {
        var iss: String
        var sub: String
        var aud: String
        var jti: String
        var iat: Int64
        var exp: Int64
    }
}
