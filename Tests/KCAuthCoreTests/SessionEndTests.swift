import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// `SessionEnd` (under `kcauth logout`) over fakes: what is sent to the provider, how its answers are judged, and that
/// the local session goes whatever the provider says.
@Suite struct SessionEndTests {
    let transport = SessionTransport()
    let store = InMemorySecretStore()
    let lock = CountingLock()
    let opener = RecordingOpener()
    let receiver = ScriptedReceiver()
    let httpBuilt = Counter()

    final class Counter: @unchecked Sendable { var value = 0 }

    var logout: SessionEnd {
        let (transport, built) = (transport, httpBuilt)
        return SessionEnd(store: store, lock: lock, http: { built.value += 1; return OAuthHTTP(transport) },
                      random: FixedRandom(), opener: opener, receiver: receiver)
    }

    init() throws {
        try SessionFixtures.store(SessionFixtures.state(), in: store)
        // The browser follows the one-shot start URL to the logout URL, which carries `state`.
        receiver.openedURL = { [receiver] in receiver.startLocation ?? "" }
    }

    @Test func endsTheSessionRevokesTheRefreshTokenAndDeletes() throws {
        transport.on(.post, SessionFixtures.endSession, status: 204)
        transport.on(.post, SessionFixtures.revocation, status: 200)

        let outcome = try logout.run(profile: "default", options: .init())

        #expect(outcome.endSession == .ended && outcome.revocation == .ended)
        #expect(outcome.deleted && store.items["default"] == nil)
        #expect(outcome.failure == nil && outcome.issuer == Fixtures.issuer)
        #expect(transport.fields(of: SessionFixtures.endSession) == [["client_id": "kcauth", "refresh_token": "rt-1"]])
        #expect(transport.fields(of: SessionFixtures.revocation) == [["token": "rt-1", "token_type_hint": "refresh_token", "client_id": "kcauth"]])
        #expect(transport.requests.map(\.sentURL) == [SessionFixtures.endSession, SessionFixtures.revocation], "end-session first (see ServerLogout)")
        #expect(lock.sessions == [SecretKey(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth")], "the stored session's lock")
    }

    @Test(arguments: [
        #"{"error":"invalid_grant","error_description":"Session not active"}"#,
        #"{"error":"invalid_grant","error_description":"Invalid refresh token"}"#,
        #"{"error":"invalid_grant"}"#,
    ])
    func anAlreadyEndedSessionCountsAsEnded(body: String) throws {
        transport.on(.post, SessionFixtures.endSession, status: 400, body: body)
        transport.on(.post, SessionFixtures.revocation, status: 200)
        let outcome = try logout.run(profile: "default", options: .init())
        #expect(outcome.endSession == .alreadyGone && outcome.serverSessionEnded && outcome.failure == nil)
    }

    @Test func anUnreachableProviderStillDeletesAndFailsWithExit1() throws {
        transport.fail(.post, SessionFixtures.endSession, KCAuthError(.network, "cannot connect to sso.example.test"))

        let outcome = try logout.run(profile: "default", options: .init())

        #expect(store.items["default"] == nil && outcome.deleted)
        #expect(outcome.revocation == .notAttempted, "an unreachable provider is not asked twice")
        let failure = try #require(outcome.failure)
        #expect(failure.code == .network)
        #expect(failure.message.contains("may still be alive"))
    }

    @Test func serverErrorsOnBothRequestsAreAFailure() throws {
        transport.on(.post, SessionFixtures.endSession, status: 502, body: "<html>")
        transport.on(.post, SessionFixtures.revocation, status: 503)
        let outcome = try logout.run(profile: "default", options: .init())
        #expect(!outcome.serverSessionEnded && outcome.failure?.code == .network && outcome.deleted)
    }

    @Test func aProviderWithoutTheBackChannelPostIsFineWhenRevocationWorks() throws {
        transport.on(.post, SessionFixtures.endSession, status: 405)
        transport.on(.post, SessionFixtures.revocation, status: 200)
        let outcome = try logout.run(profile: "default", options: .init())
        #expect(outcome.endSession == .unsupported("HTTP 405") && outcome.revocation == .ended && outcome.failure == nil)
    }

    @Test func withoutAnyEndpointTheLocalLogoutIsComplete() throws {
        var endpoints = SessionFixtures.endpoints
        endpoints.endSession = nil
        endpoints.revocation = nil
        try SessionFixtures.store(SessionFixtures.state(endpoints: endpoints), in: store)
        let outcome = try logout.run(profile: "default", options: .init())
        #expect(outcome.endSession == .notOffered && outcome.revocation == .notOffered)
        #expect(outcome.failure == nil && outcome.providerCannotEndSession && outcome.deleted, "nothing failed: exit 0")
        #expect(outcome.refreshExpiresAt == Instant(clock: Fixtures.now + 1800), "and the person is told until when the session lives")
        #expect(transport.requests.isEmpty)
    }

    @Test func withoutARefreshTokenTheAccessTokenIsRevoked() throws {
        try SessionFixtures.store(SessionFixtures.state(refreshToken: nil), in: store)
        transport.on(.post, SessionFixtures.revocation, status: 200)
        let outcome = try logout.run(profile: "default", options: .init())
        #expect(outcome.endSession == .notOffered && outcome.revocation == .ended)
        #expect(transport.fields(of: SessionFixtures.revocation).first?["token_type_hint"] == "access_token")
    }

    @Test func localOnlyNeverBuildsHTTP() throws {
        let outcome = try logout.run(profile: "default", options: .init(serverSide: false))
        #expect(outcome.deleted && outcome.failure == nil && outcome.endSession == nil)
        #expect(httpBuilt.value == 0 && transport.requests.isEmpty)
    }

    @Test func nothingStoredIsNotAnError() throws {
        let outcome = try logout.run(profile: "work", options: .init())
        #expect(!outcome.wasSignedIn && !outcome.deleted && outcome.failure == nil && transport.requests.isEmpty)
    }

    @Test func anUnreadableStateIsDeletedAndReported() throws {
        try store.write("{not json", for: SecretKey(profile: "default", issuer: "x", clientID: "y"))
        let outcome = try logout.run(profile: "default", options: .init())
        #expect(outcome.deleted && outcome.unreadable && outcome.failure != nil && transport.requests.isEmpty)
    }

    @Test func aLockedStoreDeletesNothingAndSaysSo() throws {
        store.unavailable = KCAuthError(.storageLocked, "the keyring is locked")
        #expect { try logout.run(profile: "default", options: .init()) } throws: { ($0 as? KCAuthError)?.code == .storageLocked }
    }

    // MARK: --browser (RP-initiated logout)

    static func echoState(_ url: String) -> [String: String] { ["state": queryParameters(of: url)["state"] ?? ""] }

    @Test func browserLogoutSendsTheHintAndChecksState() throws {
        transport.on(.post, SessionFixtures.endSession, status: 400, body: #"{"error":"invalid_grant"}"#)
        transport.on(.post, SessionFixtures.revocation, status: 200)
        receiver.script = [{ _ in ["state": "forged"] }, Self.echoState]
        var events: [String] = []

        let outcome = try logout.run(profile: "default", options: .init(browser: .init(timeout: 5))) { event in
            if case .openingBrowser = event { events.append("opening") }
            if case .waiting = event { events.append("waiting") }
        }

        let opened = try #require(opener.opened.first)
        #expect(opened.hasPrefix("http://127.0.0.1:50000/start/") && !opened.contains(Fixtures.idToken),
                "the browser is started with a local URL; the token travels in its redirect")
        let url = try #require(receiver.startLocation)
        #expect(url.hasPrefix(SessionFixtures.endSession + "?"))
        let query = queryParameters(of: url)
        #expect(query["id_token_hint"] == Fixtures.idToken && query["client_id"] == "kcauth")
        #expect(query["post_logout_redirect_uri"] == receiver.redirectURI)
        #expect(query["state"] == "AQEBAQEBAQEBAQEBAQEBAQ")
        #expect(receiver.pages.first == .keepWaiting(.notThisSignOut))
        #expect(receiver.pages.last == .finish(.signedOut(profile: "default")))
        #expect(events == ["opening", "waiting"] && receiver.closed)
        #expect(outcome.browser == .ended && outcome.failure == nil && outcome.deleted)
    }

    @Test func theURLWithTheIDTokenIsShownOnlyWhenNoBrowserStarts() throws {
        transport.on(.post, SessionFixtures.endSession, status: 204)
        transport.on(.post, SessionFixtures.revocation, status: 200)
        opener.failure = KCAuthError(.usage, "no browser")
        receiver.script = [Self.echoState]
        var shown: [String] = []
        _ = try logout.run(profile: "default", options: .init(browser: .init())) { event in
            if case .browserFailed(_, let url) = event { shown.append(url.reveal()) }
        }
        #expect(shown.count == 1 && shown.first == opener.opened.first)
    }

    @Test func aBrowserThatNeverComesBackStillEndsTheSessionAndDeletes() throws {
        transport.on(.post, SessionFixtures.endSession, status: 204)
        transport.on(.post, SessionFixtures.revocation, status: 200)
        receiver.script = []

        let outcome = try logout.run(profile: "default", options: .init(browser: .init(timeout: 1)))

        #expect(outcome.serverSessionEnded && outcome.deleted)
        #expect(outcome.failure?.code == .timedOut)
        #expect(outcome.failure?.message.contains("browser may still be signed in") == true)
    }
}
