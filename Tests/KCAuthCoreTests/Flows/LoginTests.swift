import Testing
@testable import KCAuthCore

/// The browser login use case over fakes: every branch of the callback and the exchange, without sockets.
@Suite struct LoginTests {
    let transport = FakeTransport()
    let store = InMemorySecretStore()
    let opener = RecordingOpener()
    let receiver = ScriptedReceiver()

    init() {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        // The check before the browser opens, where nothing is pushed: a sign-in page.
        transport.onAnyQuery(.get, Fixtures.authorizationEndpoint, FakeTransport.loginPage)
        receiver.openedURL = { [opener, receiver] in receiver.follow(opener.opened.last ?? "") }
    }

    var login: FlowDriver {
        FlowDriver(http: OAuthHTTP(transport), clock: FixedClock(time: Fixtures.now), random: FixedRandom(),
              store: store, opener: opener, receiver: receiver, sleeper: FakeSleeper())
    }

    /// The ordinary request (`PushedAuthorizationTests` covers the pushed one the fixture's PAR
    /// endpoint would otherwise bring).
    let input: FlowDriver.Input = {
        var input = FlowDriver.Input(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth",
                                scope: "openid profile email", port: 0, timeout: 300, openBrowser: true)
        input.par = .never
        return input
    }()

    /// A callback that echoes the request's state, as the provider would.
    static func answer(_ extra: [String: String]) -> (String) -> [String: String] {
        { url in extra.merging(["state": queryParameters(of: url)["state"] ?? ""]) { a, _ in a } }
    }

    @Test func successfulLoginStoresValidatedState() throws {
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        receiver.script = [Self.answer(["code": "c-1", "iss": Fixtures.issuer])]

        let output = try login.run(input) { _ in }

        #expect(output.claims.preferredUsername == "alice")
        let stored = try #require(store.items["default"])
        #expect(stored.0 == SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth"))
        let state = try AuthState.decode(stored.1, profile: "default")
        #expect(state.accessToken == "at-1" && state.refreshToken == "rt-1")
        #expect(state.expiresAt?.rfc3339 == RFC3339.format(Fixtures.now + 300))
        #expect(state.refreshExpiresAt?.rfc3339 == RFC3339.format(Fixtures.now + 1800))
        #expect(state.endpoints.token == Fixtures.tokenEndpoint)
        guard case .finish(let page) = receiver.pages.last else { Issue.record("no final page"); return }
        guard case .signedIn(let user?, "default") = page else { Issue.record("not the signed-in page: \(page)"); return }
        #expect(page.status == 200 && user.contains("alice"))
        #expect(receiver.closed)
    }

    @Test func authorizationURLCarriesPKCEStateAndNonce() throws {
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        receiver.script = [Self.answer(["code": "c-1", "iss": Fixtures.issuer])]
        _ = try login.run(input) { _ in }

        let query = queryParameters(of: receiver.follow(try #require(opener.opened.first)))
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "kcauth")
        #expect(query["redirect_uri"] == receiver.redirectURI)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["nonce"] == Fixtures.nonce)
        let fields = formFields(of: try #require(transport.requests(to: Fixtures.tokenEndpoint).first))
        #expect(fields["grant_type"] == "authorization_code")
        #expect(fields["code"] == "c-1")
        #expect(fields["redirect_uri"] == query["redirect_uri"], "RFC 6749 §4.1.3: the identical redirect_uri")
        #expect(PKCEChallenge.of(fields["code_verifier"] ?? "") == query["code_challenge"])
    }

    @Test func wrongStateIsAnsweredAndIgnored() throws {
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        receiver.script = [{ _ in ["code": "evil", "state": "forged"] }, Self.answer(["code": "c-1", "iss": Fixtures.issuer])]

        _ = try login.run(input) { _ in }

        #expect(receiver.pages.first == .keepWaiting(.notThisSignIn))
        #expect(formFields(of: try #require(transport.requests(to: Fixtures.tokenEndpoint).first))["code"] == "c-1")
        #expect(transport.requests(to: Fixtures.tokenEndpoint).count == 1)
    }

    @Test func accessDeniedStoresNothing() throws {
        receiver.script = [Self.answer(["error": "access_denied", "iss": Fixtures.issuer])]
        #expect { try login.run(input) { _ in } } throws: { ($0 as? KCAuthError)?.code == .accessDenied }
        #expect(store.items.isEmpty)
        #expect(transport.requests(to: Fixtures.tokenEndpoint).isEmpty)
    }

    @Test func mixedUpIssuerIsRejected() throws {
        receiver.script = [Self.answer(["code": "c-1", "iss": "https://evil.example"])]
        #expect { try login.run(input) { _ in } } throws: { ($0 as? KCAuthError)?.code == .invalidResponse }
        #expect(transport.requests(to: Fixtures.tokenEndpoint).isEmpty, "the code is never redeemed")
    }

    @Test func missingIssIsRejectedWhenTheProviderAnnouncesIt() throws {
        receiver.script = [Self.answer(["code": "c-1"])]
        #expect { try login.run(input) { _ in } } throws: { ($0 as? KCAuthError)?.code == .invalidResponse }
    }

    @Test func tamperedIDTokenStoresNothingAndShowsFailurePage() throws {
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse(idToken: Fixtures.idTokenTampered))
        receiver.script = [Self.answer(["code": "c-1", "iss": Fixtures.issuer])]

        #expect { try login.run(input) { _ in } } throws: { ($0 as? KCAuthError)?.code == .invalidIDToken }
        #expect(store.items.isEmpty)
        guard case .finish(let page) = receiver.pages.last else { Issue.record("no final page"); return }
        guard case .signInFailed(let error) = page else { Issue.record("not the failure page: \(page)"); return }
        #expect(page.status == 400 && error.code == .invalidIDToken)
    }

    @Test func unknownKidFetchesTheKeySetOnceMore() throws {
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse(idToken: Fixtures.idTokenRotatedKid))
        receiver.script = [Self.answer(["code": "c-1", "iss": Fixtures.issuer])]

        #expect { try login.run(input) { _ in } } throws: { ($0 as? KCAuthError)?.code == .invalidIDToken }
        #expect(transport.requests(to: Fixtures.jwksURI).count == 2)
    }

    @Test func unavailableStoreFailsBeforeAnyNetworkCall() throws {
        store.unavailable = KCAuthError(.storageUnavailable, "no keyring")
        #expect { try login.run(input) { _ in } } throws: { ($0 as? KCAuthError)?.code == .storageUnavailable }
        #expect(transport.requests.isEmpty && opener.opened.isEmpty)
    }

    @Test func providerErrorOnExchangeIsReported() throws {
        transport.on(.post, Fixtures.tokenEndpoint, status: 400, json: #"{"error":"invalid_grant","error_description":"Code not valid"}"#)
        receiver.script = [Self.answer(["code": "c-1", "iss": Fixtures.issuer])]
        #expect { try login.run(input) { _ in } } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .provider && e?.message.contains("invalid_grant (Code not valid)") == true
        }
    }

    @Test func browserFailureIsReportedButTheLoginGoesOn() throws {
        opener.failure = KCAuthError(.configuration, "cannot start a browser")
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        receiver.script = [Self.answer(["code": "c-1", "iss": Fixtures.issuer])]
        var events: [String] = []
        _ = try login.run(input) { event in events.append("\(event)") }
        #expect(events.contains { $0.hasPrefix("browserFailed") })
        #expect(store.items["default"] != nil)
    }
}

import KCAuthCrypto
import KCAuthTestSupport
enum PKCEChallenge { static func of(_ verifier: String) -> String { PKCE.challenge(forVerifier: verifier) } }
