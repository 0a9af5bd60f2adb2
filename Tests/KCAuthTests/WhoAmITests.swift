import Testing
@testable import KCAuth
@testable import KCAuthCore
import KCAuthTestSupport

/// `kcauth whoami` over fakes: claims and roles from the stored tokens, expiry rules, userinfo.
@Suite struct WhoAmITests {
    let store = InMemorySecretStore()
    let transport = SessionTransport()

    func whoami(at time: Double = Fixtures.now + 10) -> WhoAmI { WhoAmI(store: store, clock: FixedClock(time: time)) }

    static let keycloakAccessToken = SessionFixtures.jwt("""
    {"iss":"\(Fixtures.issuer)","sub":"u-1","typ":"Bearer","azp":"kcauth",
     "realm_access":{"roles":["offline_access","developer"]},
     "resource_access":{"account":{"roles":["view-profile","manage-account"]},"empty":{"roles":[]}}}
    """)

    @Test func showsTheIDTokensClaims() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: store)
        let id = try whoami().run(profile: "default")
        #expect(id.claims?.subject == "u-1" && id.claims?.preferredUsername == "alice")
        #expect(id.claims?.email == "alice@example.test" && id.claims?.name == "Alice Liddell")
        #expect(id.issuer == Fixtures.issuer && id.clientID == "kcauth")
        #expect(id.scopes == ["openid", "profile", "email"])
        #expect(id.accessTokenExpiresAt == Instant(clock: Fixtures.now + 300) && id.refreshTokenExpiresAt == Instant(clock: Fixtures.now + 1800))
        #expect(id.health == .valid && id.storage == "memory" && id.userinfo == nil)
        #expect(id.rolesSource == nil && id.realmRoles.isEmpty, "neither token carries roles")
    }

    @Test func rolesComeFromTheIDTokenWhenItHasThem() throws {
        let idToken = SessionFixtures.jwt(#"{"sub":"u-2","realm_access":{"roles":["b","a"]},"resource_access":{"cli":{"roles":["x"]}}}"#)
        try SessionFixtures.store(SessionFixtures.state(idToken: idToken, accessToken: Self.keycloakAccessToken), in: store)
        let id = try whoami().run(profile: "default")
        #expect(id.rolesSource == "id_token" && id.realmRoles == ["a", "b"])
        #expect(id.clientRoles == [ClientRoles(client: "cli", roles: ["x"])])
    }

    @Test func rolesFallBackToKeycloaksAccessToken() throws {
        try SessionFixtures.store(SessionFixtures.state(accessToken: Self.keycloakAccessToken), in: store)
        let id = try whoami().run(profile: "default")
        #expect(id.rolesSource == "access_token")
        #expect(id.realmRoles == ["developer", "offline_access"])
        #expect(id.clientRoles == [ClientRoles(client: "account", roles: ["manage-account", "view-profile"])], "clients without roles are left out")
    }

    @Test func nothingStoredIsLoginRequired() {
        #expect { try whoami().run(profile: "work") } throws: {
            let e = $0 as? KCAuthError
            return e?.code == .loginRequired && e?.remedy == .signIn(profile: "work")
        }
    }

    @Test func anExpiredButRefreshableSessionIsStillShown() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: store)
        #expect(try whoami(at: Fixtures.now + 301).run(profile: "default").health == .refreshable)
    }

    @Test func aSessionPastItsRefreshExpiryNeedsALogin() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: store)
        #expect { try whoami(at: Fixtures.now + 1801).run(profile: "default") } throws: {
            ($0 as? KCAuthError)?.code == .loginRequired && ($0 as? KCAuthError)?.message.contains("expired") == true
        }
    }

    @Test func userinfoIsAskedWithTheBearerToken() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: store)
        transport.on(.get, SessionFixtures.userinfo, status: 200, body: #"{"sub":"u-1","email":"alice@example.test","groups":["a"]}"#)
        let id = try whoami().identity(profile: "default", userinfo: OAuthHTTP(transport))
        #expect(id.userinfo?["email"] == .string("alice@example.test"))
        let request = try #require(transport.requests.first)
        #expect(request.headers.contains { $0.name == "Authorization" && $0.value == "Bearer at-1" })
    }

    @Test func aRevokedSessionAtTheProviderIsLoginRequired() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: store)
        transport.on(.get, SessionFixtures.userinfo, status: 401, body: #"{"error":"invalid_token"}"#,
                     headers: ["www-authenticate": #"Bearer error="invalid_token", error_description="The access token is invalid.""#])
        #expect { try whoami().identity(profile: "default", userinfo: OAuthHTTP(transport)) } throws: {
            let e = $0 as? KCAuthError
            return e?.code == .loginRequired && e?.message.contains("invalid_token (The access token is invalid.)") == true
        }
    }

    @Test func userinfoForAnotherSubjectIsRejected() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: store)
        transport.on(.get, SessionFixtures.userinfo, status: 200, body: #"{"sub":"someone-else"}"#)
        #expect { try whoami().identity(profile: "default", userinfo: OAuthHTTP(transport)) } throws: { ($0 as? KCAuthError)?.code == .invalidResponse }
    }

    @Test func userinfoThatIsNotJSONIsRejected() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: store)
        transport.on(.get, SessionFixtures.userinfo, status: 200, body: "eyJhbGciOi.signed.jwt")
        #expect { try whoami().identity(profile: "default", userinfo: OAuthHTTP(transport)) } throws: { ($0 as? KCAuthError)?.code == .invalidResponse }
    }

    @Test(arguments: [
        (#"Bearer realm="x", error="invalid_token", error_description="expired""#, "invalid_token (expired)"),
        (#"Bearer error="insufficient_scope""#, "insufficient_scope"),
        ("Bearer", nil),
    ] as [(String, String?)])
    func bearerChallenges(header: String, expected: String?) {
        #expect(Userinfo.bearerError(header) == expected)
    }
}
