
public struct CallbackJudge: Sendable {
    public let expectedState: Secret
    public let issuer: String
    /// RFC 9207 §2.4: when the provider advertises `iss` in responses, a response without it is rejected.
    public let issRequired: Bool

    public init(expectedState: Secret, issuer: String, issRequired: Bool) {
        self.expectedState = expectedState
        self.issuer = issuer
        self.issRequired = issRequired
    }

    /// Whether a refused ordinary request suggests `par` `always` (the request was not pushed;
    /// Keycloak refuses it with `invalid_request` when the client requires PAR without saying so).
    public var suggestsPAR = false

    public func suggestingPAR(_ yes: Bool) -> CallbackJudge {
        var copy = self
        copy.suggestsPAR = yes
        return copy
    }

    public func judge(_ request: CallbackRequest) -> CallbackOutcome {
        let outcome = judgeAlone(request)
        guard suggestsPAR, case .failed(var error) = outcome, error.oauthError == .invalidRequest, error.code == .provider else { return outcome }
        (error.hint, error.remedy) = (nil, .pushAuthorizationRequests)
        return .failed(error)
    }

    private func judgeAlone(_ request: CallbackRequest) -> CallbackOutcome {
        // A request without our state may be anything (a stale tab, another program probing the
        // port): ignore it rather than abort, so the real redirect can still arrive.
        guard let state = request["state"], constantTimeEquals(state, expectedState.reveal()) else { return .notOurs }

        if let iss = request["iss"] {
            guard iss == issuer else {
                return .failed(KCAuthError(.invalidResponse,
                    "the authorization response names issuer '\(Sanitize.oneLine(iss))', not '\(issuer)' (possible mix-up attack, RFC 9207)"))
            }
        } else if issRequired {
            return .failed(KCAuthError(.invalidResponse, "the authorization response has no 'iss' although the provider announces it (RFC 9207)"))
        }

        if let error = request["error"] {
            let detail = OAuthErrorResponse(error: error, errorDescription: request["error_description"]).summary
            let code = OAuthErrorCode(error)
            // OIDC Core §3.1.2.6: consent_required, interaction_required, login_required (and
            // RFC 6749's access_denied) mean the person did not complete the sign-in: exit 3.
            if code.meansDenied {
                return .failed(KCAuthError(.accessDenied, "sign-in was cancelled or denied at the provider: \(detail)", oauthError: code))
            }
            return .failed(KCAuthError(.provider, "the provider refused the sign-in: \(detail)", oauthError: code))
        }
        guard let code = request["code"], !code.isEmpty else {
            return .failed(KCAuthError(.invalidResponse, "the authorization response has neither a code nor an error"))
        }
        return .code(Secret(.authorizationCode, code))
    }

    private func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
