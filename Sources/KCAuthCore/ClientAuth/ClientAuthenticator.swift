import FoundationEssentials

/// Turns a ``ClientAuthentication`` into the fields and headers of one token request.
///
/// Call ``parameters(audience:)`` once per request: a signed assertion is single-use (fresh
/// `jti`, 60 s life) and a platform assertion file may have been rotated since the last one.
public struct ClientAuthenticator: Sendable {
    public static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    public let clientID: String
    public let authentication: ClientAuthentication
    let clock: any TimeSource
    let random: any RandomSource

    public init(clientID: String, authentication: ClientAuthentication, clock: any TimeSource, random: any RandomSource) {
        self.clientID = clientID
        self.authentication = authentication
        self.clock = clock
        self.random = random
    }

    /// A public client: `client_id` only.
    public static func publicClient(_ clientID: String) -> ClientAuthenticator {
        ClientAuthenticator(clientID: clientID, authentication: .none, clock: NoClock(), random: NoRandom())
    }

    /// The fields and headers for a request whose assertion audience is `audience` — the token
    /// endpoint URL (OpenID Connect Core §9), also for requests to the device authorization
    /// endpoint, which authenticates clients as the token endpoint does (RFC 8628 §3.1).
    public func parameters(audience: String) throws -> ClientAuthenticationParameters {
        switch authentication {
        case .none:
            return ClientAuthenticationParameters(fields: [FormField("client_id", clientID)])
        case .clientSecretBasic(let secret):
            // RFC 6749 §2.3.1: id and secret are form-urlencoded (Appendix B) *before* Basic
            // (RFC 7617) puts them together; a ':' in the id or '%' in the secret must survive.
            let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(secret.secret.reveal())
            let basic = Secret(.authorization, "Basic " + Data(pair.utf8).base64EncodedString())
            return ClientAuthenticationParameters(
                fields: [FormField("client_id", clientID)],
                headers: [("Authorization", WireText(basic))],
                credentials: [secret.secret, Secret(.clientSecret, FormEncoding.escape(secret.secret.reveal()))])
        case .clientSecretPost(let secret):
            return ClientAuthenticationParameters(fields: [FormField("client_id", clientID), FormField("client_secret", secret.secret)],
                                                  credentials: [secret.secret])
        case .privateKeyJWT(let signer):
            let assertion = try ClientAssertion.make(signer: signer, clientID: clientID, audience: audience, clock: clock, random: random)
            return assertionParameters(assertion, type: Self.assertionType)
        case .clientAssertion(let source):
            // A new one for every request: the platform's expire within minutes, and Keycloak
            // takes each `jti` once.
            let assertion = try source.currentAssertion()
            var parameters = assertionParameters(assertion, type: source.type.urn)
            parameters.platformAssertion = AssertionClaims(unverified: assertion)
                ?? AssertionClaims(issuer: nil, subject: nil, audiences: [], expiresAt: nil)
            return parameters
        }
    }

    /// RFC 7523 §2.2; `client_id` is optional there (RFC 7521 §4.2) but harmless, and lets a
    /// provider find the client's keys before parsing the JWT.
    private func assertionParameters(_ assertion: Secret, type: String) -> ClientAuthenticationParameters {
        ClientAuthenticationParameters(fields: [
            FormField("client_id", clientID),
            FormField("client_assertion_type", type),
            FormField("client_assertion", assertion),
        ], credentials: [assertion])
    }
}
