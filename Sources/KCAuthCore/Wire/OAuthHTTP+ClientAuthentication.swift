extension OAuthHTTP {
    /// `postForm` for a token-endpoint-style request of a client that authenticates: the
    /// authenticator's fields are merged into `fields` and its headers added. `audience` is the
    /// assertion audience when it differs from `url` (the device authorization endpoint: the
    /// assertion is still addressed to the token endpoint).
    public func postForm<T: Decodable>(_ type: T.Type, to url: String, fields: [(String, String)],
                                       authenticator: ClientAuthenticator, audience: String? = nil, what: String) throws -> T {
        let authentication = try authenticator.parameters(audience: audience ?? url)
        return try postForm(type, to: url, fields: authentication.merged(into: fields),
                            headers: authentication.headers, what: what)
    }
}
