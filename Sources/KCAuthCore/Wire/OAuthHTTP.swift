import FoundationEssentials

/// Typed calls on top of `HTTPTransport`: JSON GETs and form POSTs, with the OAuth error mapping
/// in one place.
public struct OAuthHTTP: Sendable {
    public let transport: any HTTPTransport

    public init(_ transport: any HTTPTransport) { self.transport = transport }

    /// GET a JSON document; anything but 200 + JSON is `invalidResponse` / `network`.
    public func getJSON<T: Decodable>(_ type: T.Type, from url: String, what: String) throws -> T {
        let response = try transport.send(HTTPRequest(method: .get, url: url, headers: [("Accept", "application/json")]))
        guard response.status == 200 else {
            throw KCAuthError(.network, "\(what) at \(url) answered HTTP \(response.status)")
        }
        return try decode(type, from: response.body, what: what, url: url)
    }

    /// POST a form to a token-style endpoint. 200 → `T`; a JSON OAuth error (400/401) → `.provider`
    /// carrying the error code in `cause`; anything else → `.network`.
    /// `headers` are added after the standard ones (client authentication's `Authorization`).
    public func postForm<T: Decodable>(_ type: T.Type, to url: String, fields: [(String, String)],
                                       headers: [(String, String)] = [], what: String) throws -> T {
        let response = try transport.send(HTTPRequest(
            method: .post, url: url,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
                + headers.map { (name: $0.0, value: $0.1) },
            body: Array(FormEncoding.encode(fields).utf8)))
        if response.status == 200 {
            return try decode(type, from: response.body, what: what, url: url)
        }
        if let oauth = Self.oauthError(response) {
            throw KCAuthError(.provider, "\(what) failed: \(oauth.summary)", cause: oauth.error)
        }
        throw KCAuthError(.network, "\(what) at \(url) answered HTTP \(response.status)")
    }

    /// The OAuth error in a 4xx response body, if it is one (RFC 6749 §5.2).
    public static func oauthError(_ response: HTTPResponse) -> OAuthErrorResponse? {
        guard (400..<500).contains(response.status) else { return nil }
        return try? JSONDecoder().decode(OAuthErrorResponse.self, from: Data(response.body))
    }

    private func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], what: String, url: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw KCAuthError(.invalidResponse, "\(what) at \(url) is not the expected JSON", cause: "\(error)")
        }
    }
}
