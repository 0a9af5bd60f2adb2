import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// What `idp_hint`, `prompt`, `max_age`, extra parameters … put in the
/// authorization request, and the ID token checks max_age and an essential acr
/// call for (OpenID Connect Core §3.1.2.1, §3.1.3.7).
@Suite struct AuthorizationParametersTests {
    @Test func theParametersFollowKcauthsOwnInTheURL() throws {
        let parameters = AuthorizationParameters(sticky: [.idpHint: "github", .acrValues: "gold", .uiLocales: "de en"],
                                                 loginHint: "alice", prompt: "login consent", maxAge: 0,
                                                 extra: [.init(name: "audience", value: "api & more")])
        let request = try AuthorizationRequest(clientID: "kcauth", scope: "openid", redirectURI: "http://127.0.0.1:1/callback",
                                               random: FixedRandom(), parameters: parameters)
        let query = queryParameters(of: request.url(authorizationEndpoint: Fixtures.authorizationEndpoint))
        #expect(query["kc_idp_hint"] == "github" && query["login_hint"] == "alice" && query["prompt"] == "login consent")
        #expect(query["max_age"] == "0" && query["acr_values"] == "gold" && query["ui_locales"] == "de en")
        #expect(query["audience"] == "api & more" && query["state"] == request.state)
        // Keycloak's hint leads, the other sticky ones follow the one-off ones
        // (`AuthorizationParameters.fields`).
        #expect(parameters.fields.map(\.0) == ["kc_idp_hint", "login_hint", "prompt", "max_age", "acr_values", "ui_locales", "audience"])
    }

    /// One family (`StickyParameter`): each sticky parameter is a remembered catalogue row with a
    /// flag and the text of its option, and an extra parameter may not replace it.
    @Test func everyStickyParameterHasItsCatalogueRow() {
        for parameter in StickyParameter.allCases {
            let row = parameter.row
            #expect(row.remembered && row.flag != nil && row.optionValue != nil && row.optionHelp != nil, "\(parameter)")
            #expect(AuthorizationParameters.reserved.contains(parameter.requestName))
        }
    }

    @Test func noParametersLeaveTheRequestAsItWas() throws {
        let request = try AuthorizationRequest(clientID: "kcauth", scope: "openid", redirectURI: "http://127.0.0.1:1/callback", random: FixedRandom())
        #expect(Set(queryParameters(of: request.url(authorizationEndpoint: Fixtures.authorizationEndpoint)).keys) ==
                ["response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method"])
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
        #expect(AuthorizationParameters(sticky: [.acrValues: "gold"], extra: [.init(name: "claims", value: raw)]).requirements.essentialACR == nil)
    }
}
