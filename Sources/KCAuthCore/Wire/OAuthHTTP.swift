import FoundationEssentials

/// Typed calls on top of `HTTPTransport`: JSON GETs and form POSTs, with the OAuth error mapping
/// in one place.
public struct OAuthHTTP: Sendable {
    public let transport: any HTTPTransport
    /// Set for a DPoP session (RFC 9449): every form POST carries a proof, and requests that
    /// present the access token carry one bound to it.
    public private(set) var dpop: DPoPProver?
    /// Where the mechanisms that use this transport say what they decide (`--debug`): discovery,
    /// the key set, the device flow's polls. The requests themselves are traced by the
    /// transport (``TracingTransport``).
    public let trace: any TraceSink

    public init(_ transport: any HTTPTransport, trace: any TraceSink = NoTrace()) {
        self.transport = transport
        self.trace = trace
    }

    /// The same transport, proving possession of `prover`'s key (nil: no proofs).
    public func proving(_ prover: DPoPProver?) -> OAuthHTTP {
        var copy = self
        copy.dpop = prover
        return copy
    }

    /// GET a JSON document; anything but 200 + JSON is `invalidResponse` / `network`.
    /// `publicDocument`: the answer holds no secret (discovery, a key set), so a trace shows it whole.
    public func getJSON<T: Decodable>(_ type: T.Type, from url: String, what: String, publicDocument: Bool = false) throws -> T {
        var request = HTTPRequest(method: .get, url: WireText(url), headers: [("Accept", "application/json")])
        request.answerHoldsNoSecret = publicDocument
        let response = try transport.send(request)
        guard response.status == 200 else {
            throw KCAuthError(.network, "\(what) at \(url) answered HTTP \(response.status)")
        }
        return try decode(type, from: response.body, what: what, url: url)
    }

    /// POST a form to a token-style endpoint. 200 → `T`; a JSON OAuth error (400/401) → `.provider`
    /// carrying the error code in `cause`; anything else → `.network`.
    /// `headers` are added after the standard ones (client authentication's `Authorization`).
    public func postForm<T: Decodable>(_ type: T.Type, to url: String, fields: [FormField],
                                       headers: [(name: String, value: WireText)] = [], what: String,
                                       accepting success: Set<Int> = [200]) throws -> T {
        try decode(type, from: try postFormBody(to: url, fields: fields, headers: headers, what: what, accepting: success),
                   what: what, url: url)
    }

    /// `postForm` without the decoding: the 200 answer's body, for a caller that must act on part
    /// of it (a rotated refresh token) before the rest is checked.
    /// `success`: the statuses that carry the answer (201 for a pushed authorization request,
    /// RFC 9126 §2.2).
    public func postFormBody(to url: String, fields: [FormField], headers: [(name: String, value: WireText)] = [],
                             what: String, accepting success: Set<Int> = [200]) throws -> [UInt8] {
        let response = try sendProving(method: .post, url: url, accessToken: nil) { proof in
            HTTPRequest(method: .post, url: WireText(url),
                        headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")] + headers + proof,
                        form: fields)
        }
        if success.contains(response.status) { return response.body }
        if var oauth = Self.oauthError(response) {
            // Some providers echo the request in error_description: never print a secret we sent.
            oauth.errorDescription = oauth.errorDescription.map { Self.redact($0, secretsIn: fields) }
            var error = KCAuthError(.provider, "\(what) failed: \(oauth.summary)", cause: oauth.errorDescription, oauthError: OAuthErrorCode(oauth.error))
            error.httpStatus = response.status
            error.retryAfter = RetryAfter.seconds(in: response)
            throw error
        }
        var error = KCAuthError(.network, "\(what) at \(url) answered HTTP \(response.status)")
        error.httpStatus = response.status
        error.retryAfter = RetryAfter.seconds(in: response)
        throw error
    }

    /// `: 'expires_in' is not a non-negative number of seconds`, from a decoding error that says
    /// which field was wrong; empty otherwise.
    static func fieldProblem(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)? where context.debugDescription.hasPrefix("'"):
            return ": " + Sanitize.oneLine(context.debugDescription, limit: 120)
        case .keyNotFound(let key, let context)?:
            // A field the answer must have, absent or with a value our decoder refused outright.
            let why = context.debugDescription.hasPrefix("'") ? context.debugDescription : "'\(key.stringValue)' is missing"
            return ": " + Sanitize.oneLine(why, limit: 120)
        default:
            return ""
        }
    }

    /// `text` (what the provider said) with every secret of `fields` replaced by its redacted
    /// form, as sent and percent-encoded, so a provider that echoes its input cannot make kcauth
    /// print a token.
    static func redact(_ text: String, secretsIn fields: [FormField]) -> String {
        redact(text, secrets: fields.flatMap { field in
            field.value.parts.compactMap { if case .secret(let secret, _) = $0 { secret } else { nil } }
        })
    }

    static func redact(_ text: String, secrets: [Secret]) -> String {
        var result = text
        for secret in secrets where secret.reveal().count >= 4 {
            for form in Set([secret.reveal(), FormEncoding.escape(secret.reveal())]) {
                result = result.replacing(form, with: secret.redacted)
            }
        }
        return result
    }

    /// The OAuth error in a 4xx response body, if it is one (RFC 6749 §5.2).
    public static func oauthError(_ response: HTTPResponse) -> OAuthErrorResponse? {
        guard (400..<500).contains(response.status) else { return nil }
        return try? JSONDecoder().decode(OAuthErrorResponse.self, from: Data(response.body))
    }

    public func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], what: String, url: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw KCAuthError(.invalidResponse, "\(what) at \(url) is not the expected JSON\(Self.fieldProblem(error))", cause: "\(error)")
        }
    }
}
