import Foundation
import KCAuthCrypto
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

@Suite("Client authentication at the token endpoint (RFC 6749 §2.3, RFC 7523 §2.2)")
struct ClientAuthenticationTests {
    static let endpoint = Fixtures.tokenEndpoint
    static let platformToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6Y2k6cm9ib3QifQ.c2lnbmF0dXJl"

    func authenticator(_ authentication: ClientAuthentication, clientID: String = "ci-robot") -> ClientAuthenticator {
        ClientAuthenticator(clientID: clientID, authentication: authentication, clock: FixedClock(time: Fixtures.now), random: FixedRandom())
    }

    func dictionary(_ fields: [FormField]) -> [String: String] {
        Dictionary(fields.map { ($0.name, $0.reveal()) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aPublicClientSendsOnlyItsID() throws {
        let p = try authenticator(.none).parameters(audience: Self.endpoint)
        #expect(dictionary(p.fields) == ["client_id": "ci-robot"])
        #expect(p.headers.isEmpty)
    }

    @Test func basicAuthFormEncodesIDAndSecretBeforeBase64() throws {
        // RFC 6749 §2.3.1 and Appendix B: "ci:robot" and "p@ss w%rd+" are form-encoded first.
        let p = try authenticator(.clientSecretBasic(ClientSecret("p@ss w%rd+")), clientID: "ci:robot").parameters(audience: Self.endpoint)
        #expect(p.headers.count == 1)
        #expect(p.headers.first?.0 == "Authorization")
        let encoded = try #require(p.headers.first?.1.reveal().split(separator: " ").last)
        let decoded = String(decoding: try #require(Data(base64Encoded: String(encoded))), as: UTF8.self)
        #expect(decoded == "ci%3Arobot:p%40ss%20w%25rd%2B")
        #expect(!p.fields.contains { $0.name == "client_secret" }, "the secret travels once, in the header")
        #expect(p.headers.allSatisfy { $0.value.holdsSecret } && "\(p.headers[0].value)".hasPrefix("[authorization: "),
                "the header is a secret: printed, it is redacted")
    }

    @Test func postSendsTheSecretInTheBody() throws {
        let p = try authenticator(.clientSecretPost(ClientSecret("s3cret"))).parameters(audience: Self.endpoint)
        #expect(dictionary(p.fields) == ["client_id": "ci-robot", "client_secret": "s3cret"])
        #expect(p.headers.isEmpty)
    }

    @Test func privateKeyJWTSignsAFreshAssertionForTheTokenEndpoint() throws {
        let signer = try JWSSigner(key: PrivateKey(pem: Array(ClientKeyFixtures.p256PEM.utf8)), keyID: "ci-key-1")
        let p = try authenticator(.privateKeyJWT(signer)).parameters(audience: Self.endpoint)
        let fields = dictionary(p.fields)
        #expect(fields["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        #expect(fields["client_id"] == "ci-robot")
        #expect(p.headers.isEmpty)

        let jws = try CompactJWS(try #require(fields["client_assertion"]))
        try JWSVerifier.verify(jws, with: ClientKeyFixtures.p256JWK)
        #expect(jws.header == JOSEHeader(alg: "ES256", kid: "ci-key-1", typ: "JWT"))
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(jws.payload)) as? [String: Any])
        #expect(claims["iss"] as? String == "ci-robot")
        #expect(claims["sub"] as? String == "ci-robot")
        #expect(claims["aud"] as? String == Self.endpoint)
        #expect(claims["iat"] as? Int == Int(Fixtures.now))
        #expect(claims["exp"] as? Int == Int(Fixtures.now) + 60)
        #expect(claims["jti"] as? String == Base64URL.encode(Array(repeating: 1, count: 16)))
    }

    @Test func everyRequestGetsItsOwnJTI() throws {
        let signer = try JWSSigner(key: PrivateKey(pem: Array(ClientKeyFixtures.p256PEM.utf8)))
        let auth = ClientAuthenticator(clientID: "ci-robot", authentication: .privateKeyJWT(signer),
                                       clock: FixedClock(time: Fixtures.now), random: SecureRandom())
        let jtis = try (0..<5).map { _ -> String in
            let assertion = try #require(dictionary(auth.parameters(audience: Self.endpoint).fields)["client_assertion"])
            let claims = try JSONSerialization.jsonObject(with: Data(CompactJWS(assertion).payload)) as? [String: Any]
            return try #require(claims?["jti"] as? String)
        }
        #expect(Set(jtis).count == 5)
        #expect(jtis.allSatisfy { $0.count == 22 }, "128 random bits, base64url")
    }

    @Test func thePlatformsAssertionIsReadAgainForEveryRequest() throws {
        let reader = FakeCredentialReader()
        reader.files["/var/run/secrets/tokens/kcauth"] = Array((Self.platformToken + "\n").utf8)
        let auth = authenticator(.clientAssertion(ClientAssertionSource(PlatformAssertion(.file("/var/run/secrets/tokens/kcauth")),
                                                                        ports: CredentialPorts(reader: reader), issuer: Fixtures.issuer)))
        #expect(dictionary(try auth.parameters(audience: Self.endpoint).fields)["client_assertion"] == Self.platformToken)

        let rotated = Self.platformToken.replacingOccurrences(of: "c2lnbmF0dXJl", with: "cm90YXRlZA")
        reader.files["/var/run/secrets/tokens/kcauth"] = Array(rotated.utf8)
        let fields = dictionary(try auth.parameters(audience: Self.endpoint).fields)
        #expect(fields["client_assertion"] == rotated)
        #expect(fields["client_assertion_type"] == ClientAuthenticator.assertionType)
        #expect(reader.fileReads == 2)
    }

    @Test func anAssertionFromTheEnvironment() throws {
        let reader = FakeCredentialReader()
        reader.environment["KCAUTH_CLIENT_ASSERTION"] = Self.platformToken
        let source = ClientAssertionSource(PlatformAssertion(.environment("KCAUTH_CLIENT_ASSERTION")), ports: CredentialPorts(reader: reader),
                                           issuer: Fixtures.issuer)
        #expect(try source.currentAssertion().reveal() == Self.platformToken)
    }

    @Test(arguments: ["", "not a jwt", "a.b", "a..c", "a.b.c.d", "eyJ.eyJ.sig nature", "eyJ+.eyJ.sig"])
    func somethingThatIsNotAJWTIsRefusedWithoutQuotingIt(_ content: String) {
        let reader = FakeCredentialReader()
        reader.files["/run/token"] = Array(content.utf8)
        let source = ClientAssertionSource(PlatformAssertion(.file("/run/token")), ports: CredentialPorts(reader: reader), issuer: nil)
        #expect {
            try source.currentAssertion()
        } throws: { error in
            guard let error = error as? KCAuthError, error.code == .configuration else { return false }
            return error.message.contains("/run/token") && (content.count < 3 || !error.message.contains(content))
        }
    }

    @Test func mergingReplacesTheClientIDAFlowAlreadySends() throws {
        let p = try authenticator(.clientSecretPost(ClientSecret("s3cret"))).parameters(audience: Self.endpoint)
        let merged = p.merged(into: [FormField("grant_type", "refresh_token"), FormField("refresh_token", Secret(.refreshToken, "rt")),
                                     FormField("client_id", "ci-robot")])
        #expect(merged.filter { $0.name == "client_id" }.count == 1)
        #expect(merged.map(\.name) == ["grant_type", "refresh_token", "client_id", "client_secret"])
    }

    @Test func descriptionsNeverContainTheSecret() {
        let secret = ClientSecret("hunter2-very-secret")
        for text in ["\(secret)", String(reflecting: secret), "\(ClientAuthentication.clientSecretBasic(secret))",
                     "\(ClientAuthentication.clientSecretPost(secret))"] {
            #expect(!text.contains("hunter2"), "\(text)")
        }
        #expect(ClientAuthentication.clientSecretBasic(secret).methodName == "client_secret_basic")
        #expect(ClientAuthentication.clientSecretPost(secret).methodName == "client_secret_post")
    }

    @Test func postFormSendsTheAuthorizationHeaderAndMergedFields() throws {
        let transport = FakeTransport()
        transport.on(.post, Self.endpoint, json: #"{"access_token":"at","token_type":"Bearer"}"#)
        _ = try OAuthHTTP(transport).postForm(TokenResponse.self, to: Self.endpoint, fields: [FormField("grant_type", "client_credentials")],
                                              authenticator: authenticator(.clientSecretBasic(ClientSecret("s"))), what: "test")
        let request = try #require(transport.requests.first)
        #expect(request.headers.contains { $0.name == "Authorization" && $0.value.reveal().hasPrefix("Basic ") })
        #expect(request.headers.contains { $0.name == "Content-Type" && $0.value == "application/x-www-form-urlencoded" })
        #expect(formFields(of: request) == ["grant_type": "client_credentials", "client_id": "ci-robot"])
    }

    @Test func theDeviceEndpointStillAddressesItsAssertionToTheTokenEndpoint() throws {
        let device = Fixtures.issuer + "/protocol/openid-connect/auth/device"
        let transport = FakeTransport()
        transport.on(.post, device, json: #"{"access_token":"at","token_type":"Bearer"}"#)
        let signer = try JWSSigner(key: PrivateKey(pem: Array(ClientKeyFixtures.p256PEM.utf8)))
        _ = try OAuthHTTP(transport).postForm(TokenResponse.self, to: device, fields: [],
                                              authenticator: authenticator(.privateKeyJWT(signer)), audience: Self.endpoint, what: "test")
        let sent = try #require(transport.requests.first)
        let assertion = try #require(formFields(of: sent)["client_assertion"])
        let claims = try JSONSerialization.jsonObject(with: Data(CompactJWS(assertion).payload)) as? [String: Any]
        #expect(claims?["aud"] as? String == Self.endpoint)
    }
}

@Suite("Choosing how to send a client secret (RFC 8414 §2)")
struct ClientSecretMethodTests {
    @Test func basicWhenAdvertisedOrWhenNothingIsAdvertised() throws {
        #expect(try ClientSecretMethod.preferred(advertised: nil) == .basic)
        #expect(try ClientSecretMethod.preferred(advertised: ["client_secret_post", "client_secret_basic"]) == .basic)
        let keycloak = try JSONDecoder().decode(ProviderMetadata.self, from: Data(Fixtures.discovery.utf8))
        #expect(try ClientSecretMethod.preferred(advertised: keycloak.tokenEndpointAuthMethodsSupported) == .basic)
    }

    @Test func postWhenItIsTheOnlyOne() throws {
        #expect(try ClientSecretMethod.preferred(advertised: ["private_key_jwt", "client_secret_post"]) == .post)
        #expect(ClientSecretMethod.post.authentication(ClientSecret("s")).methodName == "client_secret_post")
    }

    @Test func neitherIsAReadableProviderError() {
        #expect {
            try ClientSecretMethod.preferred(advertised: ["private_key_jwt", "tls_client_auth\u{1b}[2J"])
        } throws: { error in
            guard let error = error as? KCAuthError else { return false }
            return error.code == .provider && error.message.contains("private_key_jwt") && !error.message.contains("\u{1b}")
        }
    }

    @Test func assertionSupportFollowsDiscoveryWhenItSaysAnything() throws {
        try AssertionSupport.check(algorithm: .ES256, methods: nil, algorithms: nil)
        try AssertionSupport.check(algorithm: .ES256, methods: ["private_key_jwt"], algorithms: ["RS256", "ES256"])
        #expect(throws: KCAuthError.self) { try AssertionSupport.check(algorithm: .RS256, methods: ["client_secret_basic"], algorithms: nil) }
        #expect(throws: KCAuthError.self) { try AssertionSupport.check(algorithm: .PS256, methods: ["private_key_jwt"], algorithms: ["RS256"]) }
    }

    @Test func discoveryDecodesTheAuthMethodFields() throws {
        let json = #"{"issuer":"i","authorization_endpoint":"a","token_endpoint":"t","jwks_uri":"j","token_endpoint_auth_methods_supported":["private_key_jwt"],"token_endpoint_auth_signing_alg_values_supported":["RS256","ES256"]}"#
        let m = try JSONDecoder().decode(ProviderMetadata.self, from: Data(json.utf8))
        #expect(m.tokenEndpointAuthMethodsSupported == ["private_key_jwt"])
        #expect(m.tokenEndpointAuthSigningAlgValuesSupported == ["RS256", "ES256"])
    }
}

@Suite("Where a client secret comes from")
struct ClientSecretSourceTests {
    @Test func fromTheEnvironment() throws {
        let reader = FakeCredentialReader()
        reader.environment["KCAUTH_CLIENT_SECRET"] = "s3cret"
        #expect(try ClientSecretSource(.environment("KCAUTH_CLIENT_SECRET")).secret(using: reader) == ClientSecret("s3cret"))
    }

    @Test func fromAFileWithItsTrailingNewlineTrimmed() throws {
        let reader = FakeCredentialReader()
        reader.files["/run/secrets/kcauth"] = Array(" s3 cret \r\n\n".utf8)
        // Only line breaks go: spaces may be part of a secret.
        #expect(try ClientSecretSource(.file("/run/secrets/kcauth")).secret(using: reader).secret.reveal() == " s3 cret ")
    }

    @Test(arguments: [
        (CredentialSource.environment("KCAUTH_CLIENT_SECRET"), "not set"),
        (.environment("EMPTY_SECRET"), "is empty"),
        (.environment("NEWLINE_SECRET"), "is empty"),
        (.environment("HUGE_SECRET"), "longer than 4096"),
        (.file("/missing"), "No such file"),
        (.file("/binary"), "not UTF-8"),
        (.file("/huge"), "larger than 4096"),
    ])
    func unusableSecretsAreReadableErrorsThatNameTheSourceOnly(_ source: CredentialSource, _ reason: String) {
        let reader = FakeCredentialReader()
        reader.environment = ["EMPTY_SECRET": "", "NEWLINE_SECRET": "\n", "HUGE_SECRET": String(repeating: "x", count: 5000)]
        reader.files = ["/binary": [0xFF, 0xFE, 0x41], "/huge": Array(repeating: 0x41, count: 5000)]
        do {
            _ = try ClientSecretSource(source).secret(using: reader)
            Issue.record("accepted \(source)")
        } catch let error as KCAuthError {
            #expect(error.code == .configuration)
            #expect(error.message.contains(reason), "\(error.message)")
            #expect(!error.message.contains("xxxx") && !error.message.contains("AAAA"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theSourceIsWhatAProfileRecords() throws {
        let encoded = try JSONEncoder().encode(ClientSecretSource(.file("/run/secrets/kcauth")))
        #expect(try JSONDecoder().decode(ClientSecretSource.self, from: encoded) == ClientSecretSource(.file("/run/secrets/kcauth")))
        #expect("\(ClientSecretSource(.environment("KCAUTH_CLIENT_SECRET")))" == "$KCAUTH_CLIENT_SECRET")
    }
}

@Suite("The client's own key (--client-key)")
struct ClientKeyTests {
    @Test func aPEMFileBecomesASignerWithItsNaturalAlgorithm() throws {
        let reader = FakeCredentialReader()
        reader.files["/keys/ci.pem"] = Array(ClientKeyFixtures.p256PEM.utf8)
        let signer = try ClientKey.signer(file: "/keys/ci.pem", keyID: "ci-1", algorithm: nil, reader: reader)
        #expect(signer.algorithm == .ES256 && signer.keyID == "ci-1")
    }

    @Test func aKeyThatDoesNotFitOrIsNotAKeyIsAConfigurationErrorNamingTheFile() throws {
        let reader = FakeCredentialReader()
        reader.files["/keys/ci.pem"] = Array(ClientKeyFixtures.p256PEM.utf8)
        reader.files["/keys/secret.txt"] = Array("hunter2\n".utf8)
        for (path, algorithm) in [("/keys/ci.pem", JWSAlgorithm.RS256), ("/keys/secret.txt", nil), ("/keys/missing.pem", nil)] {
            #expect {
                try ClientKey.signer(file: path, keyID: nil, algorithm: algorithm, reader: reader)
            } throws: { error in
                guard let error = error as? KCAuthError else { return false }
                return error.code == .configuration && error.message.contains(path) && !error.message.contains("hunter2")
            }
        }
    }

    @Test func algorithmNames() throws {
        #expect(try ClientKey.algorithm(named: "ps256") == .PS256)
        #expect { try ClientKey.algorithm(named: "HS256") } throws: {
            ($0 as? KCAuthError)?.code == .usage && ($0 as? KCAuthError)?.message.contains("ES256") == true
        }
    }
}

@Suite("What a profile records about client authentication")
struct ClientAuthenticationSettingTests {
    let reader: FakeCredentialReader = {
        let reader = FakeCredentialReader()
        reader.environment["KCAUTH_CLIENT_SECRET"] = "s3cret"
        reader.files["/keys/ci.pem"] = Array(ClientKeyFixtures.p256PEM.utf8)
        reader.files["/run/token"] = Array("eyJ.eyJ.c2ln\n".utf8)
        return reader
    }()

    func metadata(methods: [String]? = nil, algorithms: [String]? = nil) -> ProviderMetadata {
        var m = ProviderMetadata(issuer: Fixtures.issuer, authorizationEndpoint: "a", tokenEndpoint: Fixtures.tokenEndpoint, jwksURI: "j")
        m.tokenEndpointAuthMethodsSupported = methods
        m.tokenEndpointAuthSigningAlgValuesSupported = algorithms
        return m
    }

    @Test func aSecretIsSentAsDiscoveryAdvertises() throws {
        let setting = ClientAuthenticationSetting.clientSecret(ClientSecretSource(.environment("KCAUTH_CLIENT_SECRET")), method: nil)
        #expect(try setting.resolve(CredentialPorts(reader: reader), metadata: metadata()).methodName == "client_secret_basic")
        #expect(try setting.resolve(CredentialPorts(reader: reader), metadata: metadata(methods: ["client_secret_post"])).methodName == "client_secret_post")
        let pinned = ClientAuthenticationSetting.clientSecret(ClientSecretSource(.environment("KCAUTH_CLIENT_SECRET")), method: .post)
        #expect(try pinned.resolve(CredentialPorts(reader: reader), metadata: metadata()).methodName == "client_secret_post")
    }

    @Test func aKeyIsCheckedAgainstDiscovery() throws {
        let setting = ClientAuthenticationSetting.privateKey(file: "/keys/ci.pem", keyID: "ci-1", algorithm: nil)
        guard case .privateKeyJWT(let signer) = try setting.resolve(CredentialPorts(reader: reader), metadata: metadata(methods: ["private_key_jwt"])) else {
            Issue.record("not private_key_jwt")
            return
        }
        #expect(signer.algorithm == .ES256 && signer.keyID == "ci-1")
        #expect(throws: KCAuthError.self) { try setting.resolve(CredentialPorts(reader: reader), metadata: metadata(methods: ["client_secret_basic"])) }
        #expect(throws: KCAuthError.self) { try setting.resolve(CredentialPorts(reader: reader), metadata: metadata(algorithms: ["RS256"])) }
    }

    @Test func anAssertionSourceIsKeptForPerRequestReading() throws {
        let setting = ClientAuthenticationSetting.clientAssertion(PlatformAssertion(.file("/run/token")))
        guard case .clientAssertion(let source) = try setting.resolve(CredentialPorts(reader: reader), metadata: metadata()) else {
            Issue.record("not a client assertion")
            return
        }
        #expect(try source.currentAssertion().reveal() == "eyJ.eyJ.c2ln")
    }

    @Test func theRecordAndItsSummaryHoldNoCredential() throws {
        let settings: [ClientAuthenticationSetting] = [
            .none,
            .clientSecret(ClientSecretSource(.file("/run/secrets/kcauth")), method: .basic),
            .privateKey(file: "/keys/ci.pem", keyID: "ci-1", algorithm: "ES256"),
            .clientAssertion(PlatformAssertion(.environment("KCAUTH_CLIENT_ASSERTION"))),
            .clientAssertion(PlatformAssertion(.githubActions, audience: "https://sso.example.test/realms/ci")),
            .clientAssertion(PlatformAssertion(.command(["get-svid", "--format", "jwt"]), type: .spiffe)),
        ]
        for setting in settings {
            let data = try JSONEncoder().encode(setting)
            #expect(try JSONDecoder().decode(ClientAuthenticationSetting.self, from: data) == setting)
            #expect(!String(decoding: data, as: UTF8.self).contains("s3cret") && !setting.summary.contains("s3cret"))
        }
        #expect(settings[1].summary == "client_secret_basic (secret from file /run/secrets/kcauth)")
        #expect(settings[2].summary == "private_key_jwt (key file /keys/ci.pem, ES256, kid ci-1)")
        #expect(settings[3].summary == "private_key_jwt (assertion from $KCAUTH_CLIENT_ASSERTION)")
        #expect(settings[4].summary == "private_key_jwt (assertion from github-actions, audience https://sso.example.test/realms/ci)")
        #expect(settings[5].sourceDescription == "assertion from command get-svid --format jwt, spiffe")
    }
}

@Suite("A provider that echoes credentials")
struct EchoedCredentialTests {
    @Test func aBasicSecretEchoedInAnErrorIsRedacted() throws {
        let transport = FakeTransport()
        transport.on(.post, Fixtures.tokenEndpoint, status: 401,
                     json: #"{"error":"invalid_client","error_description":"bad secret p@ss w0rd for ci-robot"}"#)
        let authenticator = ClientAuthenticator(clientID: "ci-robot", authentication: .clientSecretBasic(ClientSecret("p@ss w0rd")),
                                                clock: FixedClock(time: Fixtures.now), random: FixedRandom())
        #expect {
            try OAuthHTTP(transport).postForm(TokenResponse.self, to: Fixtures.tokenEndpoint, fields: [FormField("grant_type", "client_credentials")],
                                              authenticator: authenticator, what: "requesting a token")
        } throws: { error in
            guard let error = error as? KCAuthError else { return false }
            return error.oauthError == .invalidClient && !"\(error.message) \(error.cause ?? "")".contains("p@ss w0rd")
                && "\(error.message) \(error.cause ?? "")".contains("[client_secret: 9 bytes, sha256 ")
        }
    }
}
