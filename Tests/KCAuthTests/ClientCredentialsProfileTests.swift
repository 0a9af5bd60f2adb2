import Foundation
import Testing
@testable import KCAuth
@testable import KCAuthCore
import KCAuthTestSupport

/// Confidential clients: how a profile records its client authentication (where the credential
/// comes from, never the credential), the precedence flag > environment > profile, and a
/// client-credentials session renewed with the client's own credentials.
@Suite struct ClientCredentialsProfileTests {
    func resolve(_ config: String, env: [String: String] = [:], _ flags: LoginSettingsFlags = LoginSettingsFlags()) throws -> ResolvedProfile {
        var all = SettingsFlags()
        all.login = flags
        return try SettingsResolver(environment: env, config: try ConfigDocument(parsing: config, path: "/c"), configPath: "/c",
                                    workingDirectory: "/work").resolve(all)
    }

    @Test(arguments: [
        ClientAuthenticationSetting.clientSecret(ClientSecretSource(.environment("KCAUTH_CLIENT_SECRET")), method: .post),
        .clientSecret(ClientSecretSource(.file("/run/secrets/s")), method: nil),
        .privateKey(file: "/k.pem", keyID: "k1", algorithm: "PS256"),
        .privateKey(file: "/k.pem", keyID: nil, algorithm: nil),
        .clientAssertion(PlatformAssertion(.file("/var/run/token"))),
        .clientAssertion(PlatformAssertion(.environment("KCAUTH_CLIENT_ASSERTION"))),
        .clientAssertion(PlatformAssertion(.githubActions)),
        .clientAssertion(PlatformAssertion(.githubActions, audience: "https://sso.example.test/realms/ci")),
        .clientAssertion(PlatformAssertion(.command(["/usr/bin/get token", "--aud", "it's", ""]), audience: "a b", type: .spiffe)),
        .clientAssertion(PlatformAssertion(.file("/run/spiffe/svid.token"), type: .spiffe)),
    ])
    func aSettingSurvivesTheConfigurationFile(_ setting: ClientAuthenticationSetting) throws {
        var doc = ConfigDocument()
        var settings = ProfileSettings(issuer: "https://sso.example.test/realms/demo", clientID: "ci")
        settings.clientAuth = setting
        settings.grant = ProfileSettings.clientCredentialsGrant
        settings.apply(to: &doc, profile: "ci")
        let read = try ProfileSettings(try ConfigDocument(parsing: doc.text, path: "/c"), profile: "ci", path: "/c")
        #expect(read.clientAuth == setting && read.grant == "client_credentials")
    }

    /// `client_assertion_env` and `client_assertion_file` are read as the older spellings of
    /// `env:` and `file:`; what `login` writes is `client_assertion_from`, and the old keys go.
    @Test func theOlderAssertionKeysAreReadAndRewrittenAsClientAssertionFrom() throws {
        for (old, source) in [("client_assertion_file = /var/run/token", AssertionSource.file("/var/run/token")),
                              ("client_assertion_env = CI_JOB_JWT", .environment("CI_JOB_JWT"))] {
            var doc = try ConfigDocument(parsing: "[ci]\n\(old)\nclient_assertion_type = spiffe\n", path: "/c")
            var read = try ProfileSettings(doc, profile: "ci", path: "/c")
            #expect(read.clientAuth == .clientAssertion(PlatformAssertion(source, type: .spiffe)))
            read.clientAuth = read.clientAuth
            read.apply(to: &doc, profile: "ci")
            #expect(doc.value("client_assertion_from", profile: "ci") == source.text)
            #expect(doc.value("client_assertion_file", profile: "ci") == nil && doc.value("client_assertion_env", profile: "ci") == nil)
            #expect(try ProfileSettings(doc, profile: "ci", path: "/c").clientAuth == read.clientAuth)
        }
    }

    @Test func anAssertionSourceTheReaderCannotUseIsAConfigurationErrorNamingTheKey() throws {
        for bad in ["github", "env:", "env:1X", "file:relative/token", "command:", "command:'open"] {
            let error = try #require(throws: KCAuthError.self) { try resolve("[default]\nclient_assertion_from = \(bad)\n") }
            #expect(error.code == .configuration && error.message.hasPrefix("/c:2: profile [default]: client_assertion_from"), "\(error.message)")
        }
        #expect(throws: KCAuthError.self) { try resolve("[default]\nclient_assertion_from = github-actions\nclient_assertion_file = /t\n") }
    }

    @Test func theAssertionFlagsBeatTheEnvironmentAndTheProfileAndTakeTheirAudienceAndType() throws {
        let config = "[default]\nclient_assertion_from = github-actions\nclient_assertion_audience = saved\n"
        #expect(try resolve(config).clientAuth.value == .clientAssertion(PlatformAssertion(.githubActions, audience: "saved")))
        var flags = LoginSettingsFlags()
        flags.clientAssertionFrom = .file("token")
        flags.clientAssertionType = .spiffe
        let flag = try resolve(config, env: ["KCAUTH_CLIENT_ASSERTION": "x"], flags).clientAuth
        #expect(flag.value == .clientAssertion(PlatformAssertion(.file("/work/token"), type: .spiffe)), "made absolute, the audience not kept")
        #expect(flag.origin == .option("client_assertion_from"))
        var typed = LoginSettingsFlags()
        typed.clientAssertionType = .spiffe
        #expect(try resolve("", env: ["KCAUTH_CLIENT_ASSERTION": "x"], typed).clientAuth.value
                == .clientAssertion(PlatformAssertion(.environment("KCAUTH_CLIENT_ASSERTION"), type: .spiffe)))
    }

    @Test func anAudienceGoesWithASourceThatIsAskedForOne() throws {
        var flags = LoginSettingsFlags()
        flags.clientAssertionAudience = "https://sso.example.test/realms/ci"
        // The profile's source takes a new audience; a secret takes none.
        let saved = try resolve("[default]\nclient_assertion_from = github-actions\nclient_assertion_type = spiffe\n", flags).clientAuth
        #expect(saved.value == .clientAssertion(PlatformAssertion(.githubActions, audience: "https://sso.example.test/realms/ci", type: .spiffe)))
        #expect(saved.origin == .option("client_assertion_audience"))
        #expect(throws: KCAuthError.self) { try resolve("[default]\nclient_secret_env = KCAUTH_CLIENT_SECRET\n", flags) }
        #expect(throws: KCAuthError.self) { try resolve("", flags) }
        flags.clientAssertionFrom = .file("/t")
        let error = try #require(throws: KCAuthError.self) { try resolve("", flags) }
        #expect(error.code == .usage && error.message.contains("comes with the audience the platform gave it"))
        flags.clientAssertionFrom = .command(["get-token"])
        #expect(try resolve("", flags).clientAuth.value
                == .clientAssertion(PlatformAssertion(.command(["get-token"]), audience: "https://sso.example.test/realms/ci")))
    }

    @Test func aPublicLoginRemovesTheClientKeys() throws {
        var doc = try ConfigDocument(parsing: "[default]\nclient_key = /k.pem\nclient_key_id = k1\ngrant = client_credentials\n", path: "/c")
        ProfileSettings(issuer: "https://i.example").apply(to: &doc, profile: "default")
        #expect(!doc.text.contains("client_key") && !doc.text.contains("grant"))
    }

    @Test func twoCredentialsInOneProfileAreAConfigurationError() {
        #expect(throws: KCAuthError.self) { try resolve("[default]\nclient_secret_env = A\nclient_key = /k.pem\n") }
        #expect(throws: KCAuthError.self) { try resolve("[default]\nclient_auth_method = client_secret_jwt\nclient_secret_env = A\n") }
        #expect(throws: KCAuthError.self) { try resolve("[default]\ngrant = password\n") }
    }

    @Test func flagBeatsEnvironmentBeatsProfile() throws {
        let config = "[default]\nclient_key = /saved.pem\n"
        #expect(try resolve(config).clientAuth == Setting(.privateKey(file: "/saved.pem", keyID: nil, algorithm: nil), .profile, origin: .file("client_auth")))
        let env = try resolve(config, env: ["KCAUTH_CLIENT_SECRET": "x"]).clientAuth
        #expect(env.value == .clientSecret(ClientSecretSource(.environment("KCAUTH_CLIENT_SECRET")), method: nil) && env.source == .environment)
        let flag = try resolve(config, env: ["KCAUTH_CLIENT_SECRET": "x"], LoginSettingsFlags(clientSecretFile: "secret.txt")).clientAuth
        #expect(flag.value == .clientSecret(ClientSecretSource(.file("/work/secret.txt")), method: nil), "made absolute: the profile keeps it")
        #expect(try resolve("").clientAuth == Setting(.none, .default))
    }

    @Test func theEnvironmentKeepsTheMethodPinnedForIt() throws {
        let config = "[default]\nclient_secret_env = KCAUTH_CLIENT_SECRET\nclient_auth_method = client_secret_post\n"
        #expect(try resolve(config, env: ["KCAUTH_CLIENT_SECRET": "x"]).clientAuth.value ==
                .clientSecret(ClientSecretSource(.environment("KCAUTH_CLIENT_SECRET")), method: .post))
    }

    @Test func conflictingCredentialsAreUsageErrors() {
        #expect(throws: KCAuthError.self) { try resolve("", LoginSettingsFlags(clientSecretFile: "/a", clientKey: "/b")) }
        #expect(throws: KCAuthError.self) { try resolve("", env: ["KCAUTH_CLIENT_SECRET": "a", "KCAUTH_CLIENT_ASSERTION": "b"]) }
        #expect(throws: KCAuthError.self) { try resolve("", LoginSettingsFlags(clientKeyID: "k1")) }
        #expect(throws: KCAuthError.self) { try resolve("", LoginSettingsFlags(clientKey: "/k.pem", clientKeyAlgorithm: "HS256")) }
    }

    @Test func theSummaryNamesTheSourceNeverTheSecret() {
        let setting = ClientAuthenticationSetting.clientSecret(ClientSecretSource(.environment("KCAUTH_CLIENT_SECRET")), method: .basic)
        #expect(setting.methodName == "client_secret_basic" && setting.sourceDescription == "$KCAUTH_CLIENT_SECRET")
        #expect(ClientAuthenticationSetting.none.methodName == "none" && ClientAuthenticationSetting.none.sourceDescription == nil)
    }

    @Test func discoverysChoiceIsPinned() {
        let unpinned = ClientAuthenticationSetting.clientSecret(ClientSecretSource(.file("/s")), method: nil)
        #expect(unpinned.pinning(.clientSecretPost(ClientSecret("x"))) == .clientSecret(ClientSecretSource(.file("/s")), method: .post))
        let key = ClientAuthenticationSetting.privateKey(file: "/k", keyID: nil, algorithm: nil)
        #expect(key.pinning(.clientSecretPost(ClientSecret("x"))) == key)
    }

    // MARK: Renewing a client-credentials session

    @Test func anExpiredClientCredentialsTokenIsRequestedAgainUnderTheLock() throws {
        let store = InMemorySecretStore(), transport = FakeTransport(), lock = RecordingLock()
        let clock = FixedClock(time: Fixtures.now)
        let metadata = ProviderMetadata(issuer: Fixtures.issuer, authorizationEndpoint: Fixtures.authorizationEndpoint,
                                        tokenEndpoint: Fixtures.tokenEndpoint, jwksURI: Fixtures.jwksURI)
        let old = AuthState.clientCredentials(issuer: Fixtures.issuer, clientID: "ci", tokens: TokenResponse(
            accessToken: "at-old", tokenType: "Bearer", expiresIn: Seconds(300)), requestedScope: "", endpoints: ProviderEndpoints(metadata),
            now: Instant(clock: Fixtures.now - 400), sessionID: "s-1")
        #expect(SessionHealth.of(old, now: clock.instant) == .refreshable, "renewable, not a login")
        try store.write(try old.encoded(), for: SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "ci"))
        transport.on(.post, Fixtures.tokenEndpoint, json: #"{"access_token":"at-new","token_type":"Bearer","expires_in":300}"#)
        let provider = TokenProvider(profile: "default", store: store, clock: clock, lock: lock, cache: nil,
                                     binding: CacheBinding(storage: .keyring, issuer: Fixtures.issuer, clientID: "ci"),
                                     refresher: { TokenRefresher(http: OAuthHTTP(transport), clock: clock,
                                                                 authentication: .clientSecretPost(ClientSecret("s3cret"))) })
        #expect(try provider.run(.init()).accessToken == "at-new")
        #expect(lock.acquisitions == 1)
        let sent = try #require(transport.requests.first)
        #expect(formFields(of: sent) == ["grant_type": "client_credentials", "client_id": "ci", "client_secret": "s3cret"])
        let stored = try AuthState.decode(try #require(store.items["default"]?.1), profile: "default")
        #expect(stored.accessToken == "at-new" && stored.isClientCredentials && stored.refreshToken == nil && stored.sessionID == "s-1")
    }

    @Test func withoutCredentialsAnExpiredClientCredentialsSessionNeedsALogin() throws {
        let metadata = ProviderMetadata(issuer: Fixtures.issuer, authorizationEndpoint: "a", tokenEndpoint: Fixtures.tokenEndpoint, jwksURI: "j")
        let old = AuthState.clientCredentials(issuer: Fixtures.issuer, clientID: "ci", tokens: TokenResponse(
            accessToken: "at-old", tokenType: "Bearer", expiresIn: Seconds(1)), requestedScope: "", endpoints: ProviderEndpoints(metadata),
            now: Instant(clock: 0), sessionID: nil)
        #expect {
            try TokenRefresher(http: OAuthHTTP(FakeTransport()), clock: FixedClock(time: Fixtures.now)).refresh(old, profile: "default")
        } throws: { ($0 as? KCAuthError)?.code == .loginRequired }
    }
}
