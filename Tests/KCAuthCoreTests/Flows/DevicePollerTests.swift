import Foundation
import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// The device flow's poll loop (RFC 8628 §3.4–3.5) on a fake clock: spacing, slow_down, the
/// errors, and the end at expires_in.
@Suite struct DevicePollerTests {
    let sleeper = FakeSleeper()
    let request = try! DeviceAuthorizationRequest(clientID: "kcauth", scope: "openid", random: FixedRandom())

    func authorization(expiresIn: Double = 600, interval: Double = 5) -> DeviceAuthorizationResponse {
        DeviceAuthorizationResponse(deviceCode: "dc-1", userCode: "WDJB-MJHT", verificationURI: "https://x/device",
                                    expiresIn: expiresIn, interval: interval)
    }

    func poll(_ endpoint: PollingEndpoint, expiresIn: Double = 600, interval: Double = 5,
              progress: inout [DevicePoller.Progress]) throws -> TokenResponse {
        var seen: [DevicePoller.Progress] = []
        defer { progress = seen }
        return try DevicePoller(http: OAuthHTTP(endpoint), sleeper: sleeper)
            .poll(tokenEndpoint: Fixtures.tokenEndpoint, request: request, authorization: authorization(expiresIn: expiresIn, interval: interval),
                  profile: "default") { seen.append($0) }
    }

    func poll(_ endpoint: PollingEndpoint, expiresIn: Double = 600, interval: Double = 5) throws -> TokenResponse {
        var ignored: [DevicePoller.Progress] = []
        return try poll(endpoint, expiresIn: expiresIn, interval: interval, progress: &ignored)
    }

    @Test func pendingIsWaitedOutAtTheInterval() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.pending, PollingEndpoint.pending, PollingEndpoint.tokens])
        let tokens = try poll(endpoint)
        #expect(tokens.accessToken == "at-1")
        #expect(endpoint.pollTimes == [5, 10, 15], "the first poll waits one interval too")
        #expect(sleeper.sleeps.allSatisfy { $0 <= 1 }, "sleeps are cut into seconds for the countdown")
    }

    @Test func theTokenRequestCarriesTheDeviceCodeAndThePKCEVerifier() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.tokens])
        _ = try poll(endpoint)
        let form = try #require(endpoint.forms.first)
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
        #expect(form["device_code"] == "dc-1" && form["client_id"] == "kcauth")
        #expect(PKCEChallenge.of(form["code_verifier"] ?? "") == request.codeChallenge)
        let device = dictionary(request.fields)
        #expect(device["code_challenge"] == request.codeChallenge && device["code_challenge_method"] == "S256")
    }

    @Test func slowDownAddsFiveSecondsForTheRestOfTheFlow() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.pending, PollingEndpoint.slowDown, PollingEndpoint.pending,
                                                                   PollingEndpoint.slowDown, PollingEndpoint.pending, PollingEndpoint.tokens])
        var progress: [DevicePoller.Progress] = []
        _ = try poll(endpoint, progress: &progress)
        #expect(endpoint.pollTimes == [5, 10, 20, 30, 45, 60])
        #expect(progress.filter { if case .slowedDown = $0 { true } else { false } } == [.slowedDown(interval: 10), .slowedDown(interval: 15)])
    }

    @Test func theIntervalCountsFromTheAnswer() throws {
        // The provider measures from when a poll arrived: counting from the answer can never look too fast.
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.pending, PollingEndpoint.pending, PollingEndpoint.tokens])
        endpoint.latency = 0.5
        _ = try poll(endpoint)
        #expect(endpoint.pollTimes == [5, 10.5, 16])
    }

    @Test func accessDeniedEndsTheFlow() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.pending, PollingEndpoint.error("access_denied")])
        #expect { try poll(endpoint) } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .accessDenied && e?.message == "sign-in was denied at the provider (access_denied)" && e?.oauthError == .accessDenied
        }
        #expect(endpoint.pollTimes.count == 2)
    }

    @Test func expiredTokenSaysRunAgain() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.error("expired_token", "Device code is expired")])
        #expect { try poll(endpoint) } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .timedOut && e?.message == "the code expired before the sign-in was approved"
                && e?.remedy == .signInAgain(profile: "default") && e?.oauthError == .expiredToken
        }
    }

    @Test func pollingStopsAtExpiresInWithoutAnotherPoll() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.pending])
        var progress: [DevicePoller.Progress] = []
        #expect { try poll(endpoint, expiresIn: 12, progress: &progress) } throws: { ($0 as? KCAuthError)?.code == .timedOut }
        #expect(endpoint.pollTimes == [5, 10], "no poll at or after 12 s: the code is dead by then")
        #expect(sleeper.monotonicNow() == 12)
        let remaining = progress.compactMap { if case .waiting(let r) = $0 { r } else { nil } }
        #expect(remaining.first == 12 && remaining.last == 1, "a countdown, second by second")
    }

    @Test(arguments: [("invalid_grant", "Device code not valid"), ("unauthorized_client", "Client not allowed"), ("invalid_client", "Invalid client")])
    func otherErrorsCarryTheProvidersWords(code: String, description: String) throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.error(code, description)])
        #expect { try poll(endpoint) } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .provider && e?.message.contains("\(code) (\(description))") == true && e?.oauthError?.rawValue == code
        }
    }

    @Test func aServerErrorIsANetworkFailure() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [HTTPResponse(status: 502, body: Array("<html>".utf8))])
        #expect { try poll(endpoint) } throws: { ($0 as? KCAuthError)?.code == .network }
    }
}

/// Decoding the device authorization response (RFC 8628 §3.2).
@Suite struct DeviceAuthorizationResponseTests {
    func decode(_ json: String) throws -> DeviceAuthorizationResponse {
        try JSONDecoder().decode(DeviceAuthorizationResponse.self, from: Data(json.utf8))
    }

    @Test func keycloaksAnswer() throws {
        let r = try decode(DeviceFixtures.authorization())
        #expect(r.userCode == "WDJB-MJHT" && r.expiresIn == 600 && r.interval == 5)
        #expect(FlowDriver.DevicePrompt(r).linkToOpen == "https://sso.example.test/realms/demo/device?user_code=WDJB-MJHT")
    }

    @Test func withoutTheCompleteURIOrIntervalTheDefaultsApply() throws {
        let r = try decode(DeviceFixtures.authorization(complete: false, interval: nil))
        #expect(r.interval == 5, "§3.5: 5 s when the provider says nothing")
        #expect(FlowDriver.DevicePrompt(r).linkToOpen == "https://sso.example.test/realms/demo/device")
    }

    @Test func aZeroIntervalBecomesOneSecond() throws {
        #expect(try decode(DeviceFixtures.authorization(interval: 0)).interval == 1)
    }

    @Test func aMissingOrZeroLifetimeIsRejected() throws {
        #expect(throws: (any Error).self) { try decode(#"{"device_code":"d","user_code":"u","verification_uri":"https://x/device"}"#) }
        #expect(throws: (any Error).self) { try decode(DeviceFixtures.authorization(expiresIn: 0)) }
    }
}
