import FoundationEssentials
import KCAuthContract

/// The ID token of a GitHub Actions job, fetched fresh for each token request (Forgejo and Gitea
/// Actions share the contract): `GET $ACTIONS_ID_TOKEN_REQUEST_URL&audience=AUD` with
/// `Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN` answers `{"value": "<JWT>"}`. The job
/// gets the two variables only with `permissions: id-token: write`; the JWT lives about five
/// minutes, the request token as long as the job.
///
/// The request token is a secret: it goes only into the `Authorization` header, over https (or
/// plain http to a numeric loopback address, which never leaves the machine), and no message
/// names it or the service's path and query.
public struct GitHubActionsIDToken: Sendable {
    public static let urlVariable = "ACTIONS_ID_TOKEN_REQUEST_URL"
    public static let tokenVariable = "ACTIONS_ID_TOKEN_REQUEST_TOKEN"
    /// The answer is a small JSON object; anything far larger is not GitHub's.
    static let answerLimit = 64 * 1024

    let reader: any CredentialReader
    let transport: any HTTPTransport

    public init(reader: any CredentialReader, transport: any HTTPTransport) {
        self.reader = reader
        self.transport = transport
    }

    /// A new ID token for `audience`. Throws `.configuration` when the job has no ID-token
    /// permission or the service's URL is not allowed, `.network` (with the HTTP status) when
    /// the service refuses, fails or does not answer in time, `.invalidResponse` for an answer
    /// without a JWT. Every one is exit 1: no sign-in fixes them.
    public func fetch(audience: String) throws -> Secret {
        guard let url = reader.environmentValue(Self.urlVariable).flatMap({ $0.isEmpty ? nil : $0 }),
              let token = reader.environmentValue(Self.tokenVariable).flatMap({ $0.isEmpty ? nil : Secret(.platformRequestToken, $0) })
        else {
            throw KCAuthError(.configuration, "GitHub Actions gives this job no ID token: $\(Self.urlVariable) and $\(Self.tokenVariable) are not set",
                              remedy: .grantIDTokenPermission)
        }
        let host = try Self.allowedHost(url)
        let request = HTTPRequest(method: .get, url: WireText(url + (url.contains("?") ? "&" : "?") + "audience=" + FormEncoding.escape(audience)),
                                  headers: [("Authorization", WireText("bearer ") + WireText(token)), ("Accept", WireText("application/json"))])
        let response: HTTPResponse
        do {
            response = try transport.send(request)
        } catch let error as KCAuthError {
            // The transport names only the host; its remedy speaks of the OpenID Provider.
            var failed = KCAuthError(.network, "GitHub Actions' ID-token service did not answer: \(error.message)", cause: error.cause,
                                     remedy: .retryPlatformIDToken)
            failed.httpStatus = error.httpStatus
            throw failed
        }
        guard response.status == 200 else {
            var error = KCAuthError(.network, "GitHub Actions' ID-token service at \(host) answered HTTP \(response.status)",
                                    remedy: Self.remedy(forStatus: response.status))
            error.httpStatus = response.status
            throw error
        }
        guard response.body.count <= Self.answerLimit, let value = JSONValue.parse(response.body)?["value"]?.stringValue,
              ClientAssertionSource.looksLikeJWS(value) else {
            throw KCAuthError(.invalidResponse, "GitHub Actions' ID-token service at \(host) answered without a signed JWT in 'value'")
        }
        return Secret(.clientAssertion, value)
    }

    /// 401 and 403: the request token is not (or no longer) good; 408, 429 and 5xx: the service
    /// is in trouble and a new attempt may do; anything else: the URL is not the service's.
    static func remedy(forStatus status: Int) -> KCAuthError.Remedy {
        switch status {
        case 401, 403: .renewIDTokenRequest
        case 408, 429, 500...599: .retryPlatformIDToken
        default: .checkIDTokenRequestURL
        }
    }

    /// The host of `url` when the request token may go there: https to any host, plain http to
    /// a numeric loopback address only (`CredentialTransport`, the helpers' rule).
    static func allowedHost(_ url: String) throws -> String {
        guard let schemeEnd = url.firstRange(of: "://") else {
            throw KCAuthError(.configuration, "$\(urlVariable) is not an http or https URL")
        }
        let scheme = String(url[..<schemeEnd.lowerBound])
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else {
            throw KCAuthError(.configuration, "$\(urlVariable) names no host (or names a user in it)")
        }
        let host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[...close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        guard CredentialTransport.allowsToken(scheme: scheme, host: String(host)) else {
            throw KCAuthError(.configuration, "refusing to send the ID-token request token to \(Sanitize.oneLine(String(host), limit: 100)) over "
                              + "\(Sanitize.oneLine(scheme, limit: 20)): $\(urlVariable) must be an https URL")
        }
        return Sanitize.oneLine(String(authority), limit: 200)
    }
}
