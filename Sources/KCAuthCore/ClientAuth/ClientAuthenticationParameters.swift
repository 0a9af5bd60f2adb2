/// What client authentication adds to one token-endpoint request: form fields and headers.
public struct ClientAuthenticationParameters: Sendable {
    public var fields: [(String, String)]
    public var headers: [(String, String)]
    /// The secret or assertion sent, wherever it went: never to be shown if a provider echoes it.
    public var credentials: [String]
    /// What a platform's assertion that was sent says of itself (never the assertion), so that
    /// a refusal can name the `iss`, `sub` and `aud` the provider did not accept.
    public var platformAssertion: AssertionClaims?

    public init(fields: [(String, String)] = [], headers: [(String, String)] = [], credentials: [String] = []) {
        self.fields = fields
        self.headers = headers
        self.credentials = credentials
    }

    /// `fields` of a request with these added; a field of the same name (the `client_id` every
    /// flow already sends) is replaced, never repeated: RFC 6749 §3.2 forbids repeated parameters.
    public func merged(into base: [(String, String)]) -> [(String, String)] {
        let names = Set(fields.map(\.0))
        return base.filter { !names.contains($0.0) } + fields
    }
}
