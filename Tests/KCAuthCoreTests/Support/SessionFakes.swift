import Foundation
import Testing
@testable import KCAuthCore

/// HTTP stub for the session commands: per `METHOD URL` a response (with headers) or a failure;
/// an unexpected request fails the test.
final class SessionTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: Result<HTTPResponse, KCAuthError>] = [:]
    private(set) var requests: [HTTPRequest] = []

    func on(_ method: HTTPRequest.Method, _ url: String, status: Int, body: String = "", headers: [String: String] = [:]) {
        lock.withLock { routes["\(method.rawValue) \(url)"] = .success(HTTPResponse(status: status, headers: headers, body: Array(body.utf8))) }
    }

    func fail(_ method: HTTPRequest.Method, _ url: String, _ error: KCAuthError) {
        lock.withLock { routes["\(method.rawValue) \(url)"] = .failure(error) }
    }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let route = lock.withLock {
            requests.append(request)
            return routes["\(request.method.rawValue) \(request.url)"]
        }
        guard let route else {
            Issue.record("unexpected HTTP request: \(request.method.rawValue) \(request.url)")
            throw KCAuthError(.network, "no stub")
        }
        return try route.get()
    }

    func fields(of url: String) -> [[String: String]] {
        lock.withLock { requests.filter { $0.url == url }.map(formFields(of:)) }
    }
}

/// Runs the body at once and counts the acquisitions.
final class CountingLock: ProfileLock, @unchecked Sendable {
    private(set) var acquisitions: [String] = []
    func withLock<T>(profile: String, timeout: Double, _ body: () throws -> T) throws -> T {
        acquisitions.append(profile)
        return try body()
    }
}

enum SessionFixtures {
    static let endpoints = ProviderEndpoints(try! JSONDecoder().decode(ProviderMetadata.self, from: Data(Fixtures.discovery.utf8)))
    static let endSession = Fixtures.issuer + "/protocol/openid-connect/logout"
    static let revocation = Fixtures.issuer + "/protocol/openid-connect/revoke"
    static let userinfo = Fixtures.issuer + "/protocol/openid-connect/userinfo"

    /// A stored state obtained at `Fixtures.now`; `expiresIn` / `refreshExpiresIn` nil: not said.
    static func state(expiresIn: Double? = 300, refreshToken: String? = "rt-1", refreshExpiresIn: Double? = 1800,
                      idToken: String? = Fixtures.idToken, accessToken: String = "at-1",
                      endpoints: ProviderEndpoints = endpoints) -> AuthState {
        let tokens = TokenResponse(accessToken: accessToken, tokenType: "Bearer", expiresIn: expiresIn, refreshToken: refreshToken,
                                   refreshExpiresIn: refreshExpiresIn, idToken: idToken, scope: "openid profile email")
        return AuthState(issuer: Fixtures.issuer, clientID: "kcauth", tokens: tokens, requestedScope: "openid",
                         endpoints: endpoints, now: Fixtures.now)
    }

    static func store(_ state: AuthState, as profile: String = "default", in store: InMemorySecretStore) throws {
        try store.write(try state.encoded(), for: SecretKey(profile: profile, issuer: state.issuer, clientID: state.clientID))
    }

    /// An unsigned JWT with these claims (IdentityClaims never checks signatures).
    static func jwt(_ claims: String) -> String {
        func b64(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return b64(#"{"alg":"RS256","typ":"JWT"}"#) + "." + b64(claims) + ".c2ln"
    }
}
