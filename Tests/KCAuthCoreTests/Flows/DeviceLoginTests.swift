import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// `FlowDriver` with the device flow, and the automatic fall-back from a browser that will not start,
/// over fakes.
@Suite struct DeviceLoginTests {
    let transport = FakeTransport()
    let store = InMemorySecretStore()
    let opener = RecordingOpener()
    let receiver = ScriptedReceiver()
    let sleeper = FakeSleeper()

    init() {
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        // The check before the browser opens, where nothing is pushed: a sign-in page.
        transport.onAnyQuery(.get, Fixtures.authorizationEndpoint, FakeTransport.loginPage)
        receiver.openedURL = { [opener, receiver] in receiver.follow(opener.opened.last ?? "") }
    }

    var login: FlowDriver {
        FlowDriver(http: OAuthHTTP(transport), clock: FixedClock(time: Fixtures.now), random: FixedRandom(),
              store: store, opener: opener, receiver: receiver, sleeper: sleeper)
    }

    func input(_ flow: LoginFlow, fallBack: Bool = false) -> FlowDriver.Input {
        var input = FlowDriver.Input(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth", scope: "openid profile email",
                                port: 0, timeout: 300, openBrowser: true, flow: flow, fallBackToDevice: fallBack)
        input.par = .never
        return input
    }

    func provider(discovery: String = Fixtures.discovery, device: String = DeviceFixtures.authorization(), deviceStatus: Int = 200) {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: discovery)
        transport.on(.post, DeviceFixtures.deviceEndpoint, status: deviceStatus, json: device)
        transport.on(.post, Fixtures.tokenEndpoint, status: 400, json: #"{"error":"authorization_pending"}"#)
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
    }

    @Test func approvedSignInIsValidatedAndStoredLikeTheBrowserFlow() throws {
        provider()
        var prompts: [FlowDriver.DevicePrompt] = []
        let output = try login.run(input(.device)) { if case .deviceCode(let p) = $0 { prompts.append(p) } }

        #expect(output.claims.preferredUsername == "alice")
        let stored = try #require(store.items["default"])
        #expect(stored.0 == SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth"))
        let state = try AuthState.decode(stored.1, profile: "default")
        #expect(state.accessToken == "at-1" && state.refreshToken == "rt-1" && state.idToken == Fixtures.idToken)
        #expect(state.idTokenExpiresAt?.rfc3339 == RFC3339.format(4_102_444_800))
        #expect(prompts.map(\.userCode) == ["WDJB-MJHT"])
        #expect(opener.opened.isEmpty, "the device flow starts no browser")

        let deviceForm = formFields(of: try #require(transport.requests(to: DeviceFixtures.deviceEndpoint).first))
        #expect(deviceForm["client_id"] == "kcauth" && deviceForm["scope"] == "openid profile email")
        #expect(deviceForm["code_challenge_method"] == "S256")
        let polls = transport.requests(to: Fixtures.tokenEndpoint).map(formFields)
        #expect(polls.count == 2)
        #expect(polls.allSatisfy { PKCEChallenge.of($0["code_verifier"] ?? "") == deviceForm["code_challenge"] })
    }

    @Test func aTamperedIDTokenStoresNothing() throws {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        transport.on(.post, DeviceFixtures.deviceEndpoint, json: DeviceFixtures.authorization())
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse(idToken: Fixtures.idTokenTampered))
        #expect { try login.run(input(.device)) { _ in } } throws: { ($0 as? KCAuthError)?.code == .invalidIDToken }
        #expect(store.items.isEmpty)
    }

    @Test func aProviderWithoutDeviceEndpointIsToldAndTheBrowserSuggested() throws {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: DeviceFixtures.discoveryWithoutDevice)
        #expect { try login.run(input(.device)) { _ in } } throws: { error in
            let e = error as? KCAuthError
            return e?.message.contains("no device flow") == true && e?.remedy == .useBrowserFlow
        }
        #expect(transport.requests.allSatisfy { $0.method == .get })
    }

    @Test func unauthorizedClientSuggestsTheBrowserFlow() throws {
        provider(device: #"{"error":"unauthorized_client","error_description":"Client is not allowed to initiate OAuth 2.0 Device Authorization Grant. The flow is disabled for the client."}"#,
                 deviceStatus: 400)
        #expect { try login.run(input(.device)) { _ in } } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .provider && e?.message.contains("unauthorized_client (Client is not allowed") == true
                && e?.remedy == .useBrowserFlowOrEnableDevice(clientID: "kcauth")
        }
        #expect(transport.requests(to: Fixtures.tokenEndpoint).isEmpty)
    }

    @Test func anUnavailableStoreFailsBeforeTheUserIsAsked() throws {
        store.unavailable = KCAuthError(.storageUnavailable, "no keyring")
        var events: [FlowDriver.Event] = []
        #expect { try login.run(input(.device)) { events.append($0) } } throws: { ($0 as? KCAuthError)?.code == .storageUnavailable }
        #expect(transport.requests.isEmpty)
        #expect(events.isEmpty, "not even the flow is announced: the error is the only line")
    }

    @Test func aBrowserThatFailsToStartHandsOverToTheDeviceFlow() throws {
        provider()
        opener.failure = KCAuthError(.configuration, "cannot start a browser")
        var events: [FlowDriver.Event] = []
        _ = try login.run(input(.browser, fallBack: true)) { events.append($0) }
        guard case .starting(.browser)? = events.first, case .switchingToDevice(let why)? = events.dropFirst().first else {
            Issue.record("expected starting(browser), then switchingToDevice: \(events)")
            return
        }
        #expect(why.message == "cannot start a browser")
        #expect(!events.contains { if case .authorizationURL = $0 { true } else { false } }, "the dead browser URL is never shown")
        #expect(events.contains { if case .deviceCode = $0 { true } else { false } })
        #expect(receiver.closed, "the loopback listener is closed before the device flow starts")
        #expect(store.items["default"] != nil)
    }

    @Test func withoutADeviceEndpointTheBrowserFlowWaitsAsBefore() throws {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: DeviceFixtures.discoveryWithoutDevice)
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        opener.failure = KCAuthError(.configuration, "cannot start a browser")
        receiver.script = [LoginTests.answer(["code": "c-1", "iss": Fixtures.issuer])]
        var events: [String] = []
        _ = try login.run(input(.browser, fallBack: true)) { events.append("\($0)") }
        #expect(events.contains { $0.hasPrefix("browserFailed") })
        #expect(!events.contains { $0.hasPrefix("switchingToDevice") })
    }
}
