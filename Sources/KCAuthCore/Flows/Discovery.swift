/// OpenID Connect Discovery 1.0: fetch `ISSUER/.well-known/openid-configuration` and check it.
public struct Discovery: Sendable {
    let http: OAuthHTTP

    public init(http: OAuthHTTP) { self.http = http }

    public func fetch(issuer: String) throws -> ProviderMetadata {
        let url = issuer + "/.well-known/openid-configuration"
        let metadata = try http.getJSON(ProviderMetadata.self, from: url, what: "the discovery document", publicDocument: true)
        try Self.validate(metadata, issuer: issuer)
        // Fetched on every sign-in, never cached: a session keeps the endpoints it was given.
        http.trace.emit(TraceEvent("discovery.fetched", ("issuer", .text(issuer)), ("cached", .flag(false)),
                                   ("device_flow", .flag(metadata.deviceAuthorizationEndpoint != nil)),
                                   ("par", .flag(metadata.pushedAuthorizationRequestEndpoint != nil)),
                                   ("revocation", .flag(metadata.revocationEndpoint != nil)),
                                   ("end_session", .flag(metadata.endSessionEndpoint != nil))))
        return metadata
    }

    /// Discovery §4.3: the `issuer` value must be identical to the URL the document was fetched
    /// for, or a provider could speak for another. Every endpoint kcauth will send secrets to must
    /// pass the same https-or-loopback rule as the issuer.
    public static func validate(_ m: ProviderMetadata, issuer: String) throws {
        guard m.issuer == issuer else {
            throw KCAuthError(.invalidResponse,
                              "the discovery document names issuer '\(Sanitize.oneLine(m.issuer))', not '\(issuer)'",
                              hint: "check the issuer URL (for Keycloak: https://HOST/realms/REALM)")
        }
        try IssuerPolicy.checkEndpoint(m.authorizationEndpoint, what: "authorization endpoint")
        try IssuerPolicy.checkEndpoint(m.tokenEndpoint, what: "token endpoint")
        try IssuerPolicy.checkEndpoint(m.jwksURI, what: "JWKS URI")
        for (url, what) in [(m.userinfoEndpoint, "userinfo endpoint"), (m.endSessionEndpoint, "end-session endpoint"),
                            (m.revocationEndpoint, "revocation endpoint"), (m.deviceAuthorizationEndpoint, "device endpoint")] {
            if let url { try IssuerPolicy.checkEndpoint(url, what: what) }
        }
        // RFC 7636 §4.3: a provider that lists its methods but not S256 would reject our request.
        if let methods = m.codeChallengeMethodsSupported, !methods.contains("S256") {
            throw KCAuthError(.invalidResponse, "the provider does not support PKCE with S256, which kcauth requires")
        }
    }
}
