/// The device half of `kcauth login` (RFC 8628): the user signs in on any other device —
/// a phone, a laptop — while kcauth polls. For SSH sessions, containers and CI, where no
/// browser can reach a loopback listener.
struct DeviceFlow: Sendable {
    let http: OAuthHTTP
    let random: any RandomSource
    let sleeper: any Sleeper
    let finisher: SessionFinisher
    var authenticator: ClientAuthenticator? = nil

    func run(_ input: FlowDriver.Input, metadata: ProviderMetadata, notify: (FlowDriver.Event) -> Void) throws -> FlowDriver.Output {
        guard let endpoint = metadata.deviceAuthorizationEndpoint else {
            throw KCAuthError(.configuration, "the provider offers no device flow (its discovery document has no device_authorization_endpoint)",
                              remedy: .useBrowserFlow)
        }
        let request = try DeviceAuthorizationRequest(clientID: input.clientID, scope: input.scope, random: random)
        let authorization = try requestCode(request, at: endpoint, tokenEndpoint: metadata.tokenEndpoint)
        notify(.deviceCode(FlowDriver.DevicePrompt(authorization)))

        let tokens = try DevicePoller(http: http, sleeper: sleeper, authenticator: authenticator)
            .poll(tokenEndpoint: metadata.tokenEndpoint, request: request, authorization: authorization, profile: input.profile) {
                notify(.devicePolling($0))
            }
        notify(.received)
        return try finisher.finish(tokens, SessionFinisher.Context(profile: input.profile, clientID: input.clientID, requestedScope: input.scope,
                                                                   nonce: nil, metadata: metadata).proving(http.dpop, mode: input.dpop))
    }

    /// RFC 8628 §3.1–3.2. Keycloak answers `unauthorized_client` when "OAuth 2.0 Device
    /// Authorization Grant" is off for the client.
    private func requestCode(_ request: DeviceAuthorizationRequest, at endpoint: String,
                             tokenEndpoint: String) throws -> DeviceAuthorizationResponse {
        // RFC 9449 defines proofs for the token endpoint (§5), not for this one: the key is
        // bound when the device code is redeemed.
        let http = self.http.proving(nil)
        do {
            if let authenticator {
                // RFC 8628 §3.1: authenticated as at the token endpoint, the assertion addressed to it.
                return try http.postForm(DeviceAuthorizationResponse.self, to: endpoint, fields: request.fields,
                                         authenticator: authenticator, audience: tokenEndpoint, what: "asking for a device code")
            }
            return try http.postForm(DeviceAuthorizationResponse.self, to: endpoint, fields: request.fields,
                                     what: "asking for a device code")
        } catch var error as KCAuthError where error.code == .provider {
            if error.oauthError == .unauthorizedClient {
                (error.hint, error.remedy) = (nil, .useBrowserFlowOrEnableDevice(clientID: request.clientID))
            } else {
                error.hint = "check the client id and the client's settings at the provider"
            }
            throw error
        }
    }
}
