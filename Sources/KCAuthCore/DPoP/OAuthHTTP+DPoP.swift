/// Sending with DPoP proofs (RFC 9449): one proof per request, and one more try when the server
/// answers with a nonce to use (§8, §9) or a clock far from ours.
extension OAuthHTTP {
    /// Sends `build(proofHeaders)`; without a prover, `build([])` once.
    func sendProving(method: HTTPRequest.Method, url: String, accessToken: Secret?,
                     _ build: ([(name: String, value: WireText)]) -> HTTPRequest) throws -> HTTPResponse {
        guard let dpop else { return try transport.send(build([])) }
        var attempt = 0
        while true {
            let nonce = dpop.nonce(for: url)
            let proof = try dpop.proof(method: method.rawValue, url: url, accessToken: accessToken)
            let response = try transport.send(build([(name: "DPoP", value: WireText(proof))]))
            attempt += 1
            // A new proof each time (a fresh `jti`, §11.1): a server that saw the first must not
            // take the second for a replay.
            guard dpop.learn(from: response, url: url, usedNonce: nonce), attempt < 2 else { return response }
        }
    }

    /// A request that presents `accessToken` to a resource (userinfo: RFC 9449 §7.1; RFC 6750
    /// §2.1): `Authorization: DPoP` with a proof bound to the token when the token is DPoP-bound
    /// (`tokenType`), `Authorization: Bearer` otherwise. `claimsAnswer`: the answer is claims
    /// about the person (userinfo), which a trace may show as it shows the ID token's.
    public func sendPresenting(_ accessToken: Secret, tokenType: String, method: HTTPRequest.Method, url: String,
                               headers: [(name: String, value: WireText)], form: [FormField]? = nil,
                               claimsAnswer: Bool = false) throws -> HTTPResponse {
        func request(_ scheme: String, _ proof: [(name: String, value: WireText)]) -> HTTPRequest {
            var request = HTTPRequest(method: method, url: WireText(url), headers: headers + [("Authorization", "\(scheme) \(accessToken)")] + proof,
                                      form: form)
            request.answerHoldsNoSecret = claimsAnswer
            return request
        }
        guard tokenType.lowercased() == "dpop", dpop != nil else { return try transport.send(request("Bearer", [])) }
        return try sendProving(method: method, url: url, accessToken: accessToken) { request("DPoP", $0) }
    }
}
