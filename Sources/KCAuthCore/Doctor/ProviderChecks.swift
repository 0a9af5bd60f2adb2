import FoundationEssentials

/// The provider half of `kcauth doctor`: issuer reachable, discovery valid, clock skew. One GET
/// of the discovery document answers all three.
public struct ProviderChecks: Sendable {
    /// More skew than the ID token validator's leeway makes fresh tokens look expired or not yet
    /// valid, so that is where a skew stops being harmless.
    public static let maximumSkew = IDTokenValidator.leeway

    let transport: any HTTPTransport
    let clock: any TimeSource

    public init(transport: any HTTPTransport, clock: any TimeSource) {
        self.transport = transport
        self.clock = clock
    }

    static let reachable = ("issuer", "issuer reachable")
    static let discovery = ("discovery", "discovery document")
    static let skew = ("clock", "clock skew")
    static let senderConstraint = ("dpop-par", "DPoP and PAR")

    /// - Parameters:
    ///   - issuer: the configured issuer, nil when the profile has none (all three are skipped).
    ///   - dpop, par: what the profile uses, compared with what the provider advertises.
    public func run(issuer rawIssuer: String?, profile: String, dpop: DPoPMode = .no, par: PARMode = .auto) -> [DoctorCheck] {
        guard let rawIssuer else {
            let why = "no issuer configured for profile '\(profile)'"
            return [.skip(Self.reachable.0, Self.reachable.1, why), .skip(Self.discovery.0, Self.discovery.1, why),
                    .skip(Self.skew.0, Self.skew.1, why), .skip(Self.senderConstraint.0, Self.senderConstraint.1, why)]
        }
        let issuer: String
        do {
            issuer = try IssuerPolicy.normalizedIssuer(rawIssuer)
        } catch {
            return failedReach(KCAuthError.wrapping(error))
        }
        let url = issuer + "/.well-known/openid-configuration"
        let start = clock.now()
        let response: HTTPResponse
        do {
            var request = HTTPRequest(method: .get, url: WireText(url), headers: [("Accept", "application/json")])
            request.answerHoldsNoSecret = true
            response = try transport.send(request)
        } catch {
            return failedReach(KCAuthError.wrapping(error))
        }
        let end = clock.now()
        let milliseconds = Int(((end - start) * 1000).rounded())
        let discovery = discoveryCheck(response, issuer: issuer, url: url)
        let metadata = response.status == 200 ? try? JSONDecoder().decode(ProviderMetadata.self, from: Data(response.body)) : nil
        return [.pass(Self.reachable.0, Self.reachable.1, "\(issuer) answered HTTP \(response.status) in \(milliseconds) ms"),
                discovery,
                skewCheck(response, localMidpoint: (start + end) / 2),
                senderConstraintCheck(discovery.status == .pass ? metadata : nil, dpop: dpop, par: par)]
    }

    /// Whether the provider advertises DPoP (RFC 9449 §5.1) and PAR (RFC 9126 §5), and what the
    /// profile uses.
    func senderConstraintCheck(_ metadata: ProviderMetadata?, dpop: DPoPMode, par: PARMode) -> DoctorCheck {
        let (id, title) = Self.senderConstraint
        guard let metadata else { return .skip(id, title, "needs a valid discovery document") }
        let algorithms = (metadata.dpopSigningAlgValuesSupported ?? []).map { Sanitize.oneLine($0, limit: 20) }
        let advertisedDPoP = algorithms.isEmpty ? "the provider does not advertise DPoP" : "the provider advertises DPoP (\(algorithms.joined(separator: ", ")))"
        let advertisedPAR = metadata.pushedAuthorizationRequestEndpoint == nil ? "no PAR endpoint"
            : "a PAR endpoint" + (metadata.requirePushedAuthorizationRequests == true ? " (required)" : "")
        let pushes: Bool?  // nil: `always` with nowhere to push
        do {
            let endpoint = try PushedAuthorization.endpoint(mode: par, metadata: metadata)
            // `always` where discovery lists none tries Keycloak's path: is anything there?
            let missing = endpoint.flatMap { $0 == metadata.pushedAuthorizationRequestEndpoint ? nil
                : PushedAuthorization.missingGuessedEndpoint($0, transport: transport) }
            pushes = missing == nil ? endpoint != nil : nil
        } catch {
            pushes = nil
        }
        let parUse = "par = \(par.rawValue) (" + (pushes.map { $0 ? "the browser flow pushes" : "ordinary requests" } ?? "no endpoint to push to") + ")"
        let detail = "\(advertisedDPoP) and \(advertisedPAR); the profile uses dpop = \(dpop.rawValue), \(parUse)"
        if dpop.usesKey, !algorithms.isEmpty, DPoPKey.algorithm(for: metadata) == nil {
            return DoctorCheck(id, title, .fail, detail + "; kcauth signs with none of the provider's algorithms",
                               remedy: .signInWithoutDPoP)
        }
        if pushes == nil {
            return DoctorCheck(id, title, .fail, detail, remedy: .signInWithPAR([.auto, .never]))
        }
        if par == .never, metadata.requirePushedAuthorizationRequests == true {
            return DoctorCheck(id, title, .fail, detail + "; the provider requires PAR", remedy: .signInWithPAR([.auto]))
        }
        return .pass(id, title, detail)
    }

    /// The request failed: the transport's own advice when it typed the cause (an untrusted
    /// CA, a host name that does not resolve: ``KCAuthError/Remedy``) or gave a hint, else the
    /// general one.
    private func failedReach(_ error: KCAuthError) -> [DoctorCheck] {
        let why = "needs a reachable issuer"
        let fix = error.hint ?? (error.remedy == nil ? Self.networkFix : nil)
        return [DoctorCheck(Self.reachable.0, Self.reachable.1, .fail, Sanitize.oneLine(error.message), fix: fix, remedy: error.remedy),
                .skip(Self.discovery.0, Self.discovery.1, why), .skip(Self.skew.0, Self.skew.1, why),
                .skip(Self.senderConstraint.0, Self.senderConstraint.1, why)]
    }

    static let networkFix = "check the issuer URL, your network and $https_proxy / $no_proxy"

    private func discoveryCheck(_ response: HTTPResponse, issuer: String, url: String) -> DoctorCheck {
        let (id, title) = Self.discovery
        guard response.status == 200 else {
            return DoctorCheck(id, title, .fail, "\(url) answered HTTP \(response.status)",
                               fix: "check the issuer URL (for Keycloak: https://HOST/realms/REALM)")
        }
        do {
            let metadata = try JSONDecoder().decode(ProviderMetadata.self, from: Data(response.body))
            try Discovery.validate(metadata, issuer: issuer)
            let device = metadata.deviceAuthorizationEndpoint == nil ? "no device endpoint" : "device endpoint present"
            return .pass(id, title, "issuer matches, endpoints valid, \(device)")
        } catch let error as KCAuthError {
            return .fail(id, title, error, fix: error.hint ?? "the provider's discovery document is unusable: ask its administrator")
        } catch {
            return DoctorCheck(id, title, .fail, "\(url) is not an OpenID Connect discovery document",
                               fix: "check the issuer URL (for Keycloak: https://HOST/realms/REALM)")
        }
    }

    private func skewCheck(_ response: HTTPResponse, localMidpoint: Double) -> DoctorCheck {
        let (id, title) = Self.skew
        guard let header = response.header("date") else { return .skip(id, title, "the provider sent no Date header") }
        guard let server = HTTPDate.parse(header) else {
            return .skip(id, title, "the provider's Date header '\(Sanitize.oneLine(header, limit: 40))' is not an HTTP date")
        }
        // The Date header has whole seconds and is taken somewhere during the exchange: half a
        // second either way is noise.
        let skew = localMidpoint - server
        let seconds = Int(skew.magnitude.rounded())
        let direction = skew > 0 ? "ahead of" : "behind"
        guard skew.magnitude <= Self.maximumSkew else {
            return DoctorCheck(id, title, .fail, "this machine's clock is \(seconds) s \(direction) the provider's",
                               fix: "synchronise the clock (e.g. `timedatectl set-ntp true`)")
        }
        return .pass(id, title, seconds <= 1 ? "within 1 s of the provider's clock" : "\(seconds) s \(direction) the provider's clock")
    }
}
