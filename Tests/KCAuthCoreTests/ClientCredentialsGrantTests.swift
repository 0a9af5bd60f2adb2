import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

@Suite("The client credentials grant (RFC 6749 §4.4)")
struct ClientCredentialsGrantTests {
    let endpoint = Fixtures.tokenEndpoint
    let transport = FakeTransport()

    func request(scope: String? = nil, authentication: ClientAuthentication = .clientSecretBasic(ClientSecret("s3cret"))) throws -> TokenResponse {
        let authenticator = ClientAuthenticator(clientID: "ci-robot", authentication: authentication,
                                                clock: FixedClock(time: Fixtures.now), random: FixedRandom())
        return try ClientCredentialsGrant(http: OAuthHTTP(transport)).requestToken(tokenEndpoint: endpoint, scope: scope, authenticator: authenticator)
    }

    @Test func asksForAClientCredentialsTokenWithTheScope() throws {
        transport.on(.post, endpoint, json: #"{"access_token":"at-1","token_type":"Bearer","expires_in":300,"scope":"profile email"}"#)
        let tokens = try request(scope: "profile email")
        #expect(tokens == TokenResponse(accessToken: "at-1", tokenType: "Bearer", expiresIn: Seconds(300), scope: "profile email"))
        let sent = try #require(transport.requests.first)
        #expect(formFields(of: sent) == ["grant_type": "client_credentials", "scope": "profile email", "client_id": "ci-robot"])
        #expect(sent.headers.contains { $0.name == "Authorization" })
    }

    @Test func noScopeFieldWhenNoneIsAsked() throws {
        transport.on(.post, endpoint, json: #"{"access_token":"at-1","token_type":"bearer"}"#)
        _ = try request(scope: "", authentication: .clientSecretPost(ClientSecret("s3cret")))
        let sent = try #require(transport.requests.first)
        #expect(formFields(of: sent) == ["grant_type": "client_credentials", "client_id": "ci-robot", "client_secret": "s3cret"])
    }

    @Test func aRefreshTokenOrIDTokenInTheAnswerIsDropped() throws {
        // §4.4.3: "A refresh token SHOULD NOT be included"; an unvalidated ID token is never kept.
        transport.on(.post, endpoint, json: #"{"access_token":"at-1","token_type":"Bearer","expires_in":60,"refresh_token":"rt","id_token":"x.y.z"}"#)
        let tokens = try request()
        #expect(tokens.refreshToken == nil && tokens.idToken == nil)
        #expect(tokens.accessToken == "at-1")
    }

    @Test(arguments: [
        ("invalid_client", "client secret"),
        ("unauthorized_client", "Service accounts"),
        ("invalid_scope", "scope"),
    ])
    func providerErrorsCarryTheCodeAndAHint(_ code: String, _ hintWords: String) throws {
        transport.on(.post, endpoint, status: code == "invalid_client" ? 401 : 400,
                     json: #"{"error":"\#(code)","error_description":"nope"}"#)
        #expect {
            try request()
        } throws: { error in
            guard let error = error as? KCAuthError else { return false }
            return error.code == .provider && error.oauthError == OAuthErrorCode(code) && (error.hint ?? "").contains(hintWords)
                && !error.message.contains("s3cret")
        }
    }

    /// A refused platform assertion names what it said of itself (never the assertion), and
    /// points at the client's federated settings: a subject or audience that does not match is
    /// the usual cause.
    @Test(arguments: ["invalid_client", "unauthorized_client"])
    func aRefusedPlatformAssertionNamesItsIssuerSubjectAndAudience(_ code: String) throws {
        transport.on(.post, endpoint, status: 401, json: #"{"error":"\#(code)","error_description":"Invalid client credentials"}"#)
        let reader = FakeCredentialReader()
        let assertion = PlatformJWT.make(["iss": "https://token.actions.githubusercontent.com", "sub": "repo:org/app:ref:refs/heads/main",
                                          "aud": "https://sso.example.test/realms/ci", "exp": 1_900_000_000])
        reader.environment["KCAUTH_CLIENT_ASSERTION"] = assertion
        let error = try #require(throws: KCAuthError.self) {
            try request(authentication: .clientAssertion(ClientAssertionSource(PlatformAssertion(.environment("KCAUTH_CLIENT_ASSERTION")),
                                                                               ports: CredentialPorts(reader: reader), issuer: nil)))
        }
        #expect(error.code == .provider && error.remedy == .checkFederatedClient && error.hint == nil)
        #expect(error.message.hasSuffix("the platform's assertion sent had iss https://token.actions.githubusercontent.com, "
                                        + "sub repo:org/app:ref:refs/heads/main, aud https://sso.example.test/realms/ci"), "\(error.message)")
        #expect(!error.message.contains(assertion) && !error.message.contains(assertion.split(separator: ".")[1]))
    }

    @Test func anAssertionThatIsNoReadableJWTIsNamedAsSuch() throws {
        transport.on(.post, endpoint, status: 401, json: #"{"error":"invalid_client"}"#)
        let reader = FakeCredentialReader()
        reader.environment["KCAUTH_CLIENT_ASSERTION"] = "eyJ.eyJ.c2ln"
        let error = try #require(throws: KCAuthError.self) {
            try request(authentication: .clientAssertion(ClientAssertionSource(PlatformAssertion(.environment("KCAUTH_CLIENT_ASSERTION")),
                                                                               ports: CredentialPorts(reader: reader), issuer: nil)))
        }
        #expect(error.message.hasSuffix("had iss -, sub -, aud -") && error.remedy == .checkFederatedClient)
    }

    @Test(arguments: [
        #"{"access_token":"at","token_type":"DPoP"}"#,
        #"{"access_token":"at","token_type":"Bearer","expires_in":-5}"#,
        #"{"access_token":"at","token_type":"Bearer","expires_in":"nan"}"#,
    ])
    func impossibleAnswersAreInvalidResponses(_ body: String) throws {
        transport.on(.post, endpoint, json: body)
        #expect { try request() } throws: { ($0 as? KCAuthError)?.code == .invalidResponse }
    }

    @Test func aServerErrorIsANetworkFailure() throws {
        transport.on(.post, endpoint, status: 500, json: "<html>")
        #expect { try request() } throws: { ($0 as? KCAuthError)?.code == .network }
    }
}
