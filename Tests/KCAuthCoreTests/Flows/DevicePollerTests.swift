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

    @Test func aServerErrorThatNeverEndsIsWaitedOutUntilTheCodeExpires() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [HTTPResponse(status: 502, body: Array("<html>".utf8))])
        let error = try #require(throws: KCAuthError.self) { try poll(endpoint, expiresIn: 60) }
        #expect(error.code == .timedOut && error.remedy == .signInAgain(profile: "default"))
        #expect(error.message.hasPrefix("the code expired before the sign-in was approved; the provider was unreachable at the last try"))
        #expect(error.message.contains("answered HTTP 502"))
        #expect(endpoint.pollTimes == [5, 15, 35], "backoff: the interval doubled for each failure in a row")
    }

    @Test func aBlipOfRefusedConnectionsEndsNothingAndIsSaidOnceEachWay() throws {
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.pending, PollingEndpoint.pending, PollingEndpoint.tokens])
        endpoint.failures = [1: PollingEndpoint.connectionRefused, 2: PollingEndpoint.connectionRefused, 3: PollingEndpoint.connectionRefused]
        var progress: [DevicePoller.Progress] = []
        let tokens = try poll(endpoint, progress: &progress)
        #expect(tokens.accessToken == "at-1")
        // pending at 5; refused at 10, 20 (+10), 40 (+20); the provider is back at 80 (+40); then every 5 s.
        #expect(endpoint.pollTimes == [5, 10, 20, 40, 80, 85])
        let said = progress.filter { if case .waiting = $0 { false } else { true } }
        #expect(said == [.unreachable(PollingEndpoint.connectionRefused), .reachable], "once when it goes, once when it is back")
    }

    @Test func theBackoffStopsGrowingAtAMinuteUnlessTheIntervalIsLonger() {
        #expect((1...6).map { DevicePoller.backoff(interval: 5, failuresInARow: $0, retryAfter: nil) } == [10, 20, 40, 60, 60, 60])
        #expect(DevicePoller.backoff(interval: 90, failuresInARow: 3, retryAfter: nil) == 90)
        #expect(DevicePoller.backoff(interval: 5, failuresInARow: 1_000, retryAfter: nil) == 60, "no overflow")
        #expect(DevicePoller.backoff(interval: 5, failuresInARow: 1, retryAfter: 45) == 45)
        #expect(DevicePoller.backoff(interval: 5, failuresInARow: 3, retryAfter: 2) == 40)
    }

    @Test func tooManyRequestsWithRetryAfterIsHonouredWithinTheCodesLife() throws {
        let busy = HTTPResponse(status: 429, headers: ["content-type": "application/json", "retry-after": "30"],
                                body: Array(#"{"error":"slow_down_please"}"#.utf8))
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [busy, PollingEndpoint.tokens])
        _ = try poll(endpoint)
        #expect(endpoint.pollTimes == [5, 35], "a 429 is not the provider's answer to the sign-in, even with an OAuth body")

        let longer = FakeSleeper()
        let forever = HTTPResponse(status: 503, headers: ["retry-after": "86400"])
        let stuck = PollingEndpoint(sleeper: longer, answers: [forever, PollingEndpoint.tokens])
        let error = try #require(throws: KCAuthError.self) {
            try DevicePoller(http: OAuthHTTP(stuck), sleeper: longer)
                .poll(tokenEndpoint: Fixtures.tokenEndpoint, request: request, authorization: authorization(expiresIn: 120),
                      profile: "default") { _ in }
        }
        #expect(error.code == .timedOut && stuck.pollTimes == [5] && longer.monotonicNow() == 120,
                "a Retry-After beyond the code's life ends at its expiry, not a day later")
    }

    @Test func whatIsNotABlipStillEndsTheFlow() throws {
        // A certificate that is not trusted will not be on the next try either.
        let untrusted = KCAuthError(.network, "TLS certificate of sso.example.test is not trusted")
        let endpoint = PollingEndpoint(sleeper: sleeper, answers: [PollingEndpoint.pending])
        endpoint.failures = [0: untrusted]
        #expect(throws: untrusted) { try poll(endpoint) }
        // Neither will a 404 page from something that is not the token endpoint.
        let notFound = PollingEndpoint(sleeper: FakeSleeper(), answers: [HTTPResponse(status: 404, body: Array("<html>".utf8))])
        #expect { try DevicePoller(http: OAuthHTTP(notFound), sleeper: FakeSleeper())
            .poll(tokenEndpoint: Fixtures.tokenEndpoint, request: request, authorization: authorization(), profile: "default") { _ in }
        } throws: { ($0 as? KCAuthError)?.httpStatus == 404 }
        // And the provider's own answers during a blip's backoff end it as always.
        let denied = PollingEndpoint(sleeper: FakeSleeper(), answers: [PollingEndpoint.error("access_denied")])
        denied.failures = [0: PollingEndpoint.connectionRefused]
        #expect { try DevicePoller(http: OAuthHTTP(denied), sleeper: FakeSleeper())
            .poll(tokenEndpoint: Fixtures.tokenEndpoint, request: request, authorization: authorization(), profile: "default") { _ in }
        } throws: { ($0 as? KCAuthError)?.code == .accessDenied }
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
