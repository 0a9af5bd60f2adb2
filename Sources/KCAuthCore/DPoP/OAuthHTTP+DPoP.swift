/// Sending with DPoP proofs (RFC 9449): one proof per request, and one more try when the server
/// answers with a nonce to use (§8, §9) or a clock far from ours.
extension OAuthHTTP {
    /// Sends `build(proofHeaders)`; without a prover, `build([])` once.
    func sendProving(method: HTTPRequest.Method, url: String, accessToken: String?,
                     _ build: ([(name: String, value: String)]) -> HTTPRequest) throws -> HTTPResponse {
        guard let dpop else { return try transport.send(build([])) }
        var attempt = 0
        while true {
            let nonce = dpop.nonce(for: url)
            let proof = try dpop.proof(method: method.rawValue, url: url, accessToken: accessToken)
            let response = try transport.send(build([(name: "DPoP", value: proof)]))
            attempt += 1
            // A new proof each time (a fresh `jti`, §11.1): a server that saw the first must not
            // take the second for a replay.
            guard dpop.learn(from: response, url: url, usedNonce: nonce), attempt < 2 else { return response }
        }
    }

    /// A request that presents `accessToken` to a resource (userinfo: RFC 9449 §7.1; RFC 6750
    /// §2.1): `Authorization: DPoP` with a proof bound to the token when the token is DPoP-bound
    /// (`tokenType`), `Authorization: Bearer` otherwise.
    public func sendPresenting(_ accessToken: String, tokenType: String, method: HTTPRequest.Method, url: String,
                               headers: [(name: String, value: String)], body: [UInt8]? = nil) throws -> HTTPResponse {
        guard tokenType.lowercased() == "dpop", dpop != nil else {
            return try transport.send(HTTPRequest(method: method, url: url,
                                                  headers: headers + [("Authorization", "Bearer \(accessToken)")], body: body))
        }
        return try sendProving(method: method, url: url, accessToken: accessToken) { proof in
            HTTPRequest(method: method, url: url, headers: headers + [("Authorization", "DPoP \(accessToken)")] + proof, body: body)
        }
    }
}
