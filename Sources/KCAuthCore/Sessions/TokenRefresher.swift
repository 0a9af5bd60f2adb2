import FoundationEssentials
import KCAuthCrypto

/// The refresh grant (RFC 6749 §6) and what a client must do with its answer.
public struct TokenRefresher: Sendable {
    let http: OAuthHTTP
    let clock: any TimeSource
    /// How a confidential client authenticates the refresh (RFC 6749 §6: "the client MUST
    /// authenticate"); and the credentials that renew a client-credentials session.
    let authentication: ClientAuthentication
    let random: any RandomSource

    public init(http: OAuthHTTP, clock: any TimeSource, authentication: ClientAuthentication = .none,
                random: any RandomSource = NoRandom()) {
        self.http = http
        self.clock = clock
        self.authentication = authentication
        self.random = random
    }

    func authenticator(for state: AuthState) -> ClientAuthenticator? {
        if case .none = authentication { return nil }
        return ClientAuthenticator(clientID: state.clientID, authentication: authentication, clock: clock, random: random)
    }

    /// Exchanges `state.refreshToken` for new tokens and returns the state to store.
    ///
    /// - A refusal that means the session is over, in any provider's words (`RefreshRefusal`:
    ///   `invalid_grant`, LemonLDAP::NG's bare `invalid_request`, …), is thrown as
    ///   `loginRequired` with the OAuth code, its description and the HTTP status kept.
    /// - Transport failures and 5xx stay `network`; the caller keeps the stored state.
    /// - `scope`, when given, asks for a narrower scope (§6: never more than was granted).
    /// - `keepRotated` is called with a rotated refresh token as soon as the answer arrives,
    ///   before anything that could still fail (decoding the rest, ID token validation): with
    ///   rotation, the old refresh token is already dead at the provider, so losing the new one
    ///   would end the session.
    public func refresh(_ state: AuthState, profile: String, scope: String? = nil,
                        keepRotated: (Secret) throws -> Void = { _ in }) throws -> AuthState {
        if state.isClientCredentials { return try renewClientCredentials(state, profile: profile, scope: scope) }
        guard let refreshToken = state.refreshToken else {
            throw KCAuthError(.loginRequired, "the access token of profile '\(profile)' has expired and there is no refresh token",
                              remedy: .signIn(profile: profile))
        }
        // RFC 9449 §5: a bound refresh token is refreshed with a proof from the same key.
        let http = try self.http.proving(state.dpop.map { DPoPProver(key: try DPoPKey(stored: $0), clock: clock, random: random) })
        // No discovery on a refresh: the session keeps the endpoints it signed in with.
        http.trace.emit(TraceEvent("refresh.start", ("profile", .text(profile)), ("endpoints", .text("the session's (no discovery)")),
                                   ("dpop", .flag(state.dpop != nil)), ("client_authenticates", .flag(authenticator(for: state) != nil))))
        var fields = [FormField("grant_type", "refresh_token"), FormField("refresh_token", refreshToken), FormField("client_id", state.clientID)]
        if let scope { fields.append(FormField("scope", scope)) }

        let body: [UInt8]
        do {
            if let authenticator = authenticator(for: state) {
                body = try http.postFormBody(to: state.endpoints.token, fields: fields, authenticator: authenticator, what: "refreshing the token")
            } else {
                body = try http.postFormBody(to: state.endpoints.token, fields: fields, what: "refreshing the token")
            }
        } catch let error as KCAuthError where RefreshRefusal.endsSession(error, clientAuthenticates: authenticator(for: state) != nil,
                                                                          narrowedScope: scope != nil) {
            let said = error.oauthError.map { OAuthErrorResponse(error: $0.rawValue, errorDescription: error.cause).summary }
                ?? "HTTP \(error.httpStatus ?? 401)"
            throw KCAuthError(.loginRequired, "the session of profile '\(profile)' has ended at the provider (\(said))",
                              cause: error.cause, oauthError: error.oauthError, remedy: .signIn(profile: profile))
        }
        // §6 + §10.4: a rotated refresh token replaces the old one at once.
        if let rotated = JSONValue.parse(body)?["refresh_token"]?.stringValue.map({ Secret(.refreshToken, $0) }),
           !rotated.isEmpty, rotated != refreshToken {
            http.trace.emit(TraceEvent("refresh.rotated", ("old", .secret(refreshToken)), ("new", .secret(rotated)),
                                       ("kept", .text("before the rest of the answer is checked"))))
            try keepRotated(rotated)
        }
        let tokens = try http.decode(TokenResponse.self, from: body, what: "the refreshed token", url: state.endpoints.token)
        _ = try TokenTypeRule.check(tokens.tokenType, proved: http.dpop != nil)
        let now = clock.instant
        var next = state
        next.accessToken = tokens.accessToken
        next.tokenType = tokens.tokenType
        next.expiresAt = tokens.expiresIn.map(now.adding)
        // §6: a response without a refresh token means "keep using the one you have".
        if let rotated = tokens.refreshToken {
            next.refreshToken = rotated
            next.refreshExpiresAt = tokens.refreshExpiresIn.flatMap { $0.value > 0 ? now.adding($0) : nil }
        } else if let remaining = tokens.refreshExpiresIn, remaining.value > 0 {
            next.refreshExpiresAt = now.adding(remaining)
        }
        // §5.1: without `scope` in the answer, the requested scope was granted.
        next.scope = tokens.scope ?? scope ?? state.scope
        next.obtainedAt = now
        if let idToken = tokens.idToken {
            next.idToken = idToken
            next.idTokenExpiresAt = try validateRefreshedIDToken(idToken, previous: state)
        }
        return next
    }

    /// OpenID Connect Core §12.2: a refreshed ID token is validated like the first one, without
    /// a nonce, and must name the same issuer and subject as the one from the login.
    private func validateRefreshedIDToken(_ idToken: Secret, previous: AuthState) throws -> Instant {
        let claims = try IDTokenValidator(http: http, clock: clock).validate(idToken, .init(
            issuer: previous.issuer, clientID: previous.clientID, jwksURI: previous.endpoints.jwks, nonce: nil, accessToken: nil))
        if let old = previous.idToken.flatMap(IDTokenClaims.unverified), old.sub != claims.sub {
            throw IDTokenValidator.invalid("the refreshed ID token is for another subject")
        }
        return claims.exp
    }
}
