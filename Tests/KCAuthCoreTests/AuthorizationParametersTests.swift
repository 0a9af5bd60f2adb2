import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// Issue 11 item 5: what `--idp-hint`, `--prompt`, `--max-age`, `--param` … put in the
/// authorization request, what is refused, and the ID token checks max_age and an essential acr
/// call for (OpenID Connect Core §3.1.2.1, §3.1.3.7).
@Suite struct AuthorizationParametersTests {
    @Test func theParametersFollowKcauthsOwnInTheURL() throws {
        let parameters = AuthorizationParameters(idpHint: "github", loginHint: "alice", prompt: "login consent", maxAge: 0,
                                                 acrValues: "gold", uiLocales: "de en",
                                                 extra: [.init(name: "audience", value: "api & more")])
        let request = try AuthorizationRequest(clientID: "kcauth", scope: "openid", redirectURI: "http://127.0.0.1:1/callback",
                                               random: FixedRandom(), parameters: parameters)
        let query = queryParameters(of: request.url(authorizationEndpoint: Fixtures.authorizationEndpoint))
        #expect(query["kc_idp_hint"] == "github" && query["login_hint"] == "alice" && query["prompt"] == "login consent")
        #expect(query["max_age"] == "0" && query["acr_values"] == "gold" && query["ui_locales"] == "de en")
        #expect(query["audience"] == "api & more" && query["state"] == request.state)
    }

    @Test func noParametersLeaveTheRequestAsItWas() throws {
        let request = try AuthorizationRequest(clientID: "kcauth", scope: "openid", redirectURI: "http://127.0.0.1:1/callback", random: FixedRandom())
        #expect(Set(queryParameters(of: request.url(authorizationEndpoint: Fixtures.authorizationEndpoint)).keys) ==
                ["response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method"])
    }

    @Test(arguments: ["login", "consent", "select_account", "none", "login consent"])
    func promptValuesOfOIDCCore(_ value: String) throws {
        #expect(try AuthorizationParameters.prompt(value) == value)
    }

    @Test(arguments: ["", "sometimes", "none login", "login login", "LOGIN"])
    func otherPromptsAreUsageErrors(_ value: String) {
        #expect(throws: KCAuthError.self) { try AuthorizationParameters.prompt(value) }
    }

    @Test(arguments: ["-1", "1e3", "0x10", " 5", "", "99999999999", "315360001", "١٢"])
    func maxAgeIsPlainWholeSeconds(_ value: String) {
        #expect(throws: KCAuthError.self) { try AuthorizationParameters.maxAge(value) }
    }

    @Test func maxAgeZeroAndTenYears() throws {
        #expect(try AuthorizationParameters.maxAge("0") == 0)
        #expect(try AuthorizationParameters.maxAge("315360000") == 315_360_000)
    }

    @Test(arguments: ["state=x", "nonce=x", "redirect_uri=x", "client_id=x", "code_challenge=x", "request_uri=x", "prompt=login",
                      "kc_idp_hint=x", "novalue", "=x", "a b=c", "a\u{1}=c"])
    func kcauthsOwnAndMalformedParametersAreRefused(_ raw: String) {
        #expect(throws: KCAuthError.self) { try AuthorizationParameters.parameter(raw) }
    }

    @Test func aParameterValueMayContainEqualsSigns() throws {
        #expect(try AuthorizationParameters.parameter("claims={\"a\":\"b=c\"}") == .init(name: "claims", value: "{\"a\":\"b=c\"}"))
    }

    // MARK: The ID token checks

    func claims(_ extra: String) throws -> IDTokenClaims {
        let json = #"{"iss":"i","sub":"s","aud":"kcauth","exp":2000000000,"iat":1763700000"# + extra + "}"
        return try JSONDecoder().decode(IDTokenClaims.self, from: Data(json.utf8))
    }

    let now = Instant(clock: Fixtures.now)

    @Test func maxAgeNeedsARecentAuthTime() throws {
        let requirements = AuthenticationRequirements(maxAge: 300)
        try requirements.check(try claims(#","auth_time":\#(Int(Fixtures.now) - 350)"#), now: now)  // within the leeway
        #expect(throws: KCAuthError.self) { try requirements.check(try claims(#","auth_time":\#(Int(Fixtures.now) - 400)"#), now: now) }
        #expect(throws: KCAuthError.self) { try requirements.check(try claims(""), now: now) }
        try AuthenticationRequirements().check(try claims(""), now: now)  // not asked: not checked
    }

    @Test func anEssentialACRMustBeOneOfTheValues() throws {
        let parameters = AuthorizationParameters(extra: [.init(name: "claims", value: #"{"id_token":{"acr":{"essential":true,"values":["gold","platinum"]}}}"#)])
        #expect(parameters.requirements.essentialACR == ["gold", "platinum"])
        try parameters.requirements.check(try claims(#","acr":"gold""#), now: now)
        #expect(throws: KCAuthError.self) { try parameters.requirements.check(try claims(#","acr":"silver""#), now: now) }
        #expect(throws: KCAuthError.self) { try parameters.requirements.check(try claims(""), now: now) }
    }

    @Test(arguments: [#"{"id_token":{"acr":{"values":["gold"]}}}"#, #"{"userinfo":{"acr":{"essential":true}}}"#, "not json", "[]"])
    func aVoluntaryOrForeignClaimsRequestChecksNothing(_ raw: String) {
        #expect(AuthorizationParameters(acrValues: "gold", extra: [.init(name: "claims", value: raw)]).requirements.essentialACR == nil)
    }
}
