/// Pushes an authorization request to the provider (RFC 9126 §2.1): the PKCE challenge, `state`,
/// `nonce`, `dpop_jkt` and the authorization parameters go to the provider directly, with the
/// client's authentication, and the browser is sent only `client_id` and `request_uri`.
public struct PushedAuthorization: Sendable {
    let http: OAuthHTTP
    /// A confidential client authenticates the push as it does at the token endpoint (§2); a
    /// public one sends its `client_id`.
    let authenticator: ClientAuthenticator?
    public let endpoint: String
    /// The provider's discovery lists `endpoint`; false: it is Keycloak's fixed path, which
    /// `par = always` tries where discovery lists none.
    public let advertised: Bool

    public init(http: OAuthHTTP, authenticator: ClientAuthenticator?, endpoint: String, advertised: Bool = true) {
        self.http = http
        self.authenticator = authenticator
        self.endpoint = endpoint
        self.advertised = advertised
    }

    /// The pusher of the profile's `par` for the provider, nil for ordinary requests.
    public static func forLogin(mode: PARMode, metadata: ProviderMetadata, http: OAuthHTTP,
                                authenticator: ClientAuthenticator?) throws -> PushedAuthorization? {
        try endpoint(mode: mode, metadata: metadata).map {
            PushedAuthorization(http: http, authenticator: authenticator, endpoint: $0,
                                advertised: $0 == metadata.pushedAuthorizationRequestEndpoint)
        }
    }

    /// Whether the browser flow pushes, and where, for the profile's `par` and the provider's
    /// discovery document; nil: an ordinary authorization request.
    public static func endpoint(mode: PARMode, metadata: ProviderMetadata) throws -> String? {
        switch mode {
        case .never:
            return nil
        case .auto:
            return metadata.pushedAuthorizationRequestEndpoint
        case .always:
            if let endpoint = metadata.pushedAuthorizationRequestEndpoint { return endpoint }
            // Keycloak does not advertise it when discovery is trimmed, but its path is fixed.
            if metadata.issuer.contains("/realms/") { return metadata.issuer + "/protocol/openid-connect/ext/par/request" }
            throw noEndpoint(tried: nil)
        }
    }

    /// `par = always` with nowhere to push: discovery lists no endpoint, and Keycloak's fixed
    /// path (`tried`, when it was tried) has none either.
    static func noEndpoint(tried: Int?) -> KCAuthError {
        let path = tried.map { ", and Keycloak's PAR path answered HTTP \($0)" } ?? ""
        return KCAuthError(.configuration, "the provider lists no pushed_authorization_request_endpoint\(path), and par is 'always'",
                           remedy: .signInWithPAR([.auto, .never]))
    }

    /// The statuses of a path with no endpoint behind it (an empty push to a real one is
    /// refused with 400 or 401).
    static let nothingThere: Set<Int> = [404, 405, 501]

    /// Why `par = always` cannot push where discovery lists no endpoint and `endpoint` is
    /// Keycloak's fixed path (doctor): an empty push is refused by a real endpoint (400 or 401)
    /// and not found where there is none. nil: something answers there, or nothing answered.
    public static func missingGuessedEndpoint(_ endpoint: String, transport: any HTTPTransport) -> KCAuthError? {
        let request = HTTPRequest(method: .post, url: WireText(endpoint), headers: [("Accept", WireText("application/json"))], form: [])
        guard let status = (try? transport.send(request))?.status, nothingThere.contains(status) else { return nil }
        return noEndpoint(tried: status)
    }

    /// The browser's URL after a successful push: `authorizationEndpoint` with `client_id` and
    /// `request_uri` only.
    public func browserURL(for request: AuthorizationRequest, metadata: ProviderMetadata) throws -> WireText {
        let pushed = try push(request, issuer: metadata.issuer)
        return request.url(authorizationEndpoint: metadata.authorizationEndpoint, requestURI: pushed.requestURI)
    }

    /// A push at `now` (monotonic), with what the browser needs and how long it may wait.
    public func pushed(_ request: AuthorizationRequest, metadata: ProviderMetadata, now: Double) throws -> PushedRequest {
        let pushed = try push(request, issuer: metadata.issuer)
        return PushedRequest(browserURL: request.url(authorizationEndpoint: metadata.authorizationEndpoint, requestURI: pushed.requestURI),
                             pushedAt: now, expiresIn: pushed.expiresIn)
    }

    public func push(_ request: AuthorizationRequest, issuer: String) throws -> PushedAuthorizationResponse {
        let what = "pushing the authorization request"
        do {
            if let authenticator {
                // §2: the provider accepts its issuer as a client assertion's audience.
                return try http.postForm(PushedAuthorizationResponse.self, to: endpoint, fields: request.fields,
                                         authenticator: authenticator, audience: issuer, what: what, accepting: [200, 201])
            }
            return try http.postForm(PushedAuthorizationResponse.self, to: endpoint, fields: request.fields, what: what,
                                     accepting: [200, 201])
        } catch let error as KCAuthError where !advertised && error.httpStatus.map(Self.nothingThere.contains) == true {
            // `always` tried Keycloak's path, and nothing is there (Keycloak's own "not found"
            // comes as JSON): not a PAR provider.
            throw Self.noEndpoint(tried: error.httpStatus)
        } catch var error as KCAuthError where error.code == .provider {
            (error.hint, error.remedy) = (nil, .checkClientOrSkipPushedAuthorization)
            throw error
        }
    }
}
