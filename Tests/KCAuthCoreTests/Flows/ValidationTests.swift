import Testing
@testable import KCAuthCore

/// OpenID Connect Core §3.1.3.7 claim checks, one row per rule.
@Suite struct IDTokenClaimTests {
    static let expect = IDTokenValidator.Expectations(issuer: "https://op.test/realms/demo", clientID: "kcauth",
                                                      jwksURI: "https://op.test/certs", nonce: "n-1", accessToken: nil)

    static func claims(_ overrides: [String: String] = [:]) throws -> IDTokenClaims {
        var fields = ["iss": "\"https://op.test/realms/demo\"", "sub": "\"u\"", "aud": "\"kcauth\"",
                      "exp": "2000", "iat": "1000", "nonce": "\"n-1\""]
        for (k, v) in overrides { fields[k] = v }
        let json = "{" + fields.filter { $0.value != "-" }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        return try JSONDecoderShim.decode(json)
    }

    @Test func aValidTokenPasses() throws {
        try IDTokenValidator.checkClaims(try Self.claims(), Self.expect, alg: "RS256", now: 1500)
    }

    @Test(arguments: [
        (["iss": "\"https://op.test/realms/other\""], 1500.0, "issued by"),
        (["aud": "\"someone-else\""], 1500, "audience"),
        (["aud": "[\"kcauth\",\"other\"]"], 1500, "no authorized party"),
        (["aud": "[\"kcauth\",\"other\"]", "azp": "\"other\""], 1500, "authorized party is"),
        ([:], 2061, "expired"),
        (["iat": "1700"], 1500, "future"),
        (["nonce": "\"n-2\""], 1500, "nonce"),
        (["nonce": "-"], 1500, "nonce"),
    ] as [([String: String], Double, String)])
    func aBrokenRuleRejectsTheToken(overrides: [String: String], now: Double, reason: String) throws {
        let c = try Self.claims(overrides)
        #expect { try IDTokenValidator.checkClaims(c, Self.expect, alg: "RS256", now: Instant(clock: now)) } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .invalidIDToken && e?.message.contains(reason) == true
        }
    }

    @Test func leewayToleratesSmallSkew() throws {
        try IDTokenValidator.checkClaims(try Self.claims(["iat": "1540"]), Self.expect, alg: "RS256", now: 1500)
        try IDTokenValidator.checkClaims(try Self.claims(), Self.expect, alg: "RS256", now: 2040)
    }

    @Test func severalAudiencesWithOurAzpPass() throws {
        try IDTokenValidator.checkClaims(try Self.claims(["aud": "[\"kcauth\",\"account\"]", "azp": "\"kcauth\""]), Self.expect, alg: "RS256", now: 1500)
    }

    @Test func refreshValidationNeedsNoNonce() throws {
        var e = Self.expect
        e.nonce = nil
        try IDTokenValidator.checkClaims(try Self.claims(["nonce": "-"]), e, alg: "RS256", now: 1500)
    }
}

@Suite struct CallbackJudgeTests {
    let judge = CallbackJudge(expectedState: "s-1", issuer: "https://op.test", issRequired: false)

    @Test func codeWithOurStateIsAccepted() {
        #expect(judge.judge(.init(parameters: ["state": "s-1", "code": "c"])) == .code("c"))
    }

    @Test func missingOrWrongStateIsNotOurs() {
        #expect(judge.judge(.init(parameters: ["code": "c"])) == .notOurs)
        #expect(judge.judge(.init(parameters: ["state": "s-2", "code": "c"])) == .notOurs)
        #expect(judge.judge(.init(parameters: ["state": "s-1x", "error": "access_denied"])) == .notOurs)
    }

    @Test func providerErrorsAreTold() {
        guard case .failed(let e) = judge.judge(.init(parameters: ["state": "s-1", "error": "access_denied"])) else { Issue.record(); return }
        #expect(e.code == .accessDenied)
        guard case .failed(let f) = judge.judge(.init(parameters: ["state": "s-1", "error": "invalid_scope", "error_description": "bad\nscope"])) else { Issue.record(); return }
        #expect(f.code == .provider && f.message.contains("invalid_scope (bad scope)"))
    }

    @Test func codeIsRequired() {
        guard case .failed(let e) = judge.judge(.init(parameters: ["state": "s-1"])) else { Issue.record(); return }
        #expect(e.code == .invalidResponse)
    }
}

@Suite struct IssuerPolicyTests {
    @Test(arguments: ["https://sso.example.com/realms/a", "http://127.0.0.1:8080/realms/a", "http://[::1]:1/x", "http://localhost:9/x", "https://sso.example.com/realms/a/"])
    func acceptable(_ issuer: String) throws {
        #expect(try IssuerPolicy.normalizedIssuer(issuer).hasSuffix("/") == false)
    }

    @Test(arguments: ["http://sso.example.com/realms/a", "ftp://x/y", "not a url", "https://x/realms/a?q=1", "http://127.0.0.1.evil.com/x"])
    func refused(_ issuer: String) {
        #expect { try IssuerPolicy.normalizedIssuer(issuer) } throws: { ($0 as? KCAuthError)?.code == .usage }
    }

    /// A refused endpoint came from the provider's discovery document, not from the user: a
    /// provider fault (exit 1), never "usage" (exit 2).
    @Test(arguments: ["http://sso.example.com/realms/a/token", "ftp://sso.example.com/token", "http://127.0.0.1.evil.com/x"])
    func refusedEndpointIsTheProvidersFault(_ endpoint: String) {
        #expect { try IssuerPolicy.checkEndpoint(endpoint, what: "token endpoint") } throws: {
            ($0 as? KCAuthError)?.code == .invalidResponse
        }
    }
}

@Suite struct ScopeAndRequestTests {
    @Test func openidIsAlwaysFirstAndDuplicatesGo() {
        #expect(Scope.normalize("profile email") == "openid profile email")
        #expect(Scope.normalize("email,openid email offline_access") == "openid email offline_access")
        #expect(Scope.normalize("") == "openid")
    }

    @Test func authorizationURLKeepsAnExistingQuery() throws {
        let r = try AuthorizationRequest(clientID: "c", scope: "openid", redirectURI: "http://127.0.0.1:1/callback", random: FixedRandom())
        #expect(r.url(authorizationEndpoint: "https://op/auth?kc_idp_hint=x").reveal().hasPrefix("https://op/auth?kc_idp_hint=x&response_type=code&"))
        #expect(r.codeVerifier.reveal().count == 43, "RFC 7636 §4.1: 43 to 128 characters")
    }
}

import Foundation
import KCAuthTestSupport
enum JSONDecoderShim {
    static func decode(_ json: String) throws -> IDTokenClaims { try JSONDecoder().decode(IDTokenClaims.self, from: Data(json.utf8)) }
}
