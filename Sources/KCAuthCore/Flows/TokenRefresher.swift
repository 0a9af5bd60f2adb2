import FoundationEssentials
import KCAuthCrypto

/// The refresh grant (RFC 6749 §6) and what a client must do with its answer.
public struct TokenRefresher: Sendable {
    let http: OAuthHTTP
    let clock: any TimeSource

    public init(http: OAuthHTTP, clock: any TimeSource) {
        self.http = http
        self.clock = clock
    }

    /// Exchanges `state.refreshToken` for new tokens and returns the state to store.
    ///
    /// - `invalid_grant` means the session is over (revoked, expired, rotated away, or — on
    ///   Keycloak — detached after a reuse): thrown as `loginRequired`.
    /// - Transport failures and 5xx stay `network`; the caller keeps the stored state.
    /// - `scope`, when given, asks for a narrower scope (§6: never more than was granted).
    public func refresh(_ state: AuthState, profile: String, scope: String? = nil) throws -> AuthState {
        guard let refreshToken = state.refreshToken else {
            throw KCAuthError(.loginRequired, "the access token of profile '\(profile)' has expired and there is no refresh token", hint: LoginHint.command(profile: profile))
        }
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", state.clientID)]
        if let scope { fields.append(("scope", scope)) }

        let tokens: TokenResponse
        do {
            tokens = try http.postForm(TokenResponse.self, to: state.endpoints.token, fields: fields, what: "refreshing the token")
        } catch let error as KCAuthError where error.code == .provider && error.cause == "invalid_grant" {
            throw KCAuthError(.loginRequired, "the session of profile '\(profile)' has ended at the provider (\(Self.detail(error)))",
                              hint: LoginHint.command(profile: profile), cause: "invalid_grant")
        }
        guard tokens.tokenType.lowercased() == "bearer" else {
            throw KCAuthError(.invalidResponse, "the provider issued a '\(Sanitize.oneLine(tokens.tokenType))' token; kcauth supports Bearer tokens only")
        }
        let now = clock.now()
        var next = state
        next.accessToken = tokens.accessToken
        next.tokenType = tokens.tokenType
        next.expiresAt = tokens.expiresIn.map { RFC3339.format(now + $0) }
        // §6: a response without a refresh token means "keep using the one you have".
        if let rotated = tokens.refreshToken {
            next.refreshToken = rotated
            next.refreshExpiresAt = tokens.refreshExpiresIn.flatMap { $0 > 0 ? RFC3339.format(now + $0) : nil }
        } else if let remaining = tokens.refreshExpiresIn, remaining > 0 {
            next.refreshExpiresAt = RFC3339.format(now + remaining)
        }
        next.scope = tokens.scope ?? scope ?? state.scope
        next.obtainedAt = RFC3339.format(now)
        if let idToken = tokens.idToken {
            next.idToken = idToken
            next.idTokenExpiresAt = try validateRefreshedIDToken(idToken, previous: state).map(RFC3339.format)
        }
        return next
    }

    /// OpenID Connect Core §12.2: a refreshed ID token is validated like the first one, without
    /// a nonce, and must name the same issuer and subject as the one from the login.
    private func validateRefreshedIDToken(_ idToken: String, previous: AuthState) throws -> Double? {
        let claims = try IDTokenValidator(http: http, clock: clock).validate(idToken, .init(
            issuer: previous.issuer, clientID: previous.clientID, jwksURI: previous.endpoints.jwks, nonce: nil, accessToken: nil))
        if let old = previous.idToken.flatMap(IDTokenClaims.unverified), old.sub != claims.sub {
            throw IDTokenValidator.invalid("the refreshed ID token is for another subject")
        }
        return claims.exp
    }

    private static func detail(_ error: KCAuthError) -> String {
        error.message.components(separatedBy: "failed: ").last ?? "invalid_grant"
    }
}
