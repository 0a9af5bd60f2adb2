import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// Against login fixation (`BrowserBinding`): the browser login keeps the authorization request out
/// of the browser's argv and binds the browser to the login.
@Suite struct BrowserBindingTests {
    let transport = FakeTransport()
    let opener = RecordingOpener()
    let receiver = ScriptedReceiver()
    let printed = PrintedURL()

    init() {
        transport.on(.get, Fixtures.issuer + "/.well-known/openid-configuration", json: Fixtures.discovery)
        transport.on(.get, Fixtures.jwksURI, json: Fixtures.jwks)
        // The check before the browser opens, where nothing is pushed: a sign-in page.
        transport.onAnyQuery(.get, Fixtures.authorizationEndpoint, FakeTransport.loginPage)
        transport.on(.post, Fixtures.tokenEndpoint, json: Fixtures.tokenResponse())
        // The browser kcauth opened, or (without one) the user with the printed URL.
        receiver.openedURL = { [opener, receiver, printed] in
            opener.opened.last.map { receiver.follow($0) } ?? printed.url ?? ""
        }
        receiver.script = [LoginTests.answer(["code": "c-1", "iss": Fixtures.issuer])]
    }

    func login(openBrowser: Bool, events: inout [FlowDriver.Event]) throws -> FlowDriver.Output {
        let login = FlowDriver(http: OAuthHTTP(transport), clock: FixedClock(time: Fixtures.now), random: FixedRandom(),
                          store: InMemorySecretStore(), opener: opener, receiver: receiver, sleeper: FakeSleeper())
        var input = FlowDriver.Input(profile: "default", issuer: Fixtures.issuer, clientID: "kcauth",
                                scope: "openid profile email", port: 0, timeout: 120, openBrowser: openBrowser)
        input.par = .never
        var seen: [FlowDriver.Event] = []
        defer { events = seen }
        return try login.run(input) { [printed] event in
            seen.append(event)
            if case .authorizationURL(let url) = event { printed.url = url.reveal() }
        }
    }

    @Test func theBrowserIsStartedAtAOneShotLocalURLThatBindsIt() throws {
        var events: [FlowDriver.Event] = []
        _ = try login(openBrowser: true, events: &events)

        let opened = try #require(opener.opened.first)
        #expect(opened.hasPrefix("http://127.0.0.1:50000/start/"))
        #expect(!opened.contains("state=") && !opened.contains("code_challenge"), "no part of the request in argv")
        let authorizationURL = try #require(receiver.startLocation)
        #expect(authorizationURL.hasPrefix(Fixtures.authorizationEndpoint + "?"))
        // What is printed is a second local start URL (stderr is the user's): short, never the
        // one in argv, and it leads where the start URL leads.
        let shown = try #require(receiver.shownAt)
        #expect(shown.hasPrefix("http://127.0.0.1:50000/show/") && shown != opened)
        #expect(events.contains { if case .authorizationURL(let url) = $0 { url == shown } else { false } })
        #expect(receiver.follow(shown) == authorizationURL)

        let binding = try #require(receiver.binding)
        #expect(binding.cookieValue.reveal().count >= 22, "128 random bits")
        #expect(binding.cookieName.hasPrefix("kcauth-") && binding.cookieName != binding.cookieValue.reveal())
        #expect(binding.lifetime == 180)
        #expect(binding.reusedStartError.code == .cancelled)
        #expect(binding.reusedStartError.message.contains("opened twice"))
        #expect(LandingPage.otherBrowser.status == 400 && LandingPage.startUsedTwice.status == 409)
    }

    @Test func aSecondBrowserAtThePrintedURLSignsIn() throws {
        // The browser kcauth started shows nothing useful; the person opens the printed URL in another.
        receiver.openedURL = { [receiver, printed] in receiver.follow(printed.url ?? "") }
        var events: [FlowDriver.Event] = []
        let output = try login(openBrowser: true, events: &events)
        #expect(output.claims.preferredUsername == "alice")
        #expect(printed.url == receiver.shownAt && printed.url != opener.opened.first)
    }

    @Test func withoutABrowserNothingIsBoundAndThePrintedURLWorksAlone() throws {
        var events: [FlowDriver.Event] = []
        let output = try login(openBrowser: false, events: &events)
        #expect(output.claims.preferredUsername == "alice")
        #expect(opener.opened.isEmpty && receiver.binding == nil && receiver.startLocation == nil && receiver.shownAt == nil)
        #expect(printed.url?.hasPrefix(Fixtures.authorizationEndpoint + "?") == true, "the provider's URL, to open anywhere")
    }
}

final class PrintedURL: @unchecked Sendable {
    var url: String?
}
