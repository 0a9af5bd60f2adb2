import Synchronization
import Testing
@testable import KCAuth
import KCAuthTestSupport

/// The `Login` use case in-process over `FakeAdapters`: the decisions the CLI used to make
/// before it (first run, "already signed in") are the use case's now.
@Suite struct LoginUseCaseTests {
    final class Events: Sendable {
        private let list = Mutex<[Login.Event]>([])
        var all: [Login.Event] { list.withLock { $0 } }
        func add(_ event: Login.Event) { list.withLock { $0.append(event) } }

        var questions: [Login.Question] { all.compactMap { if case .question(let q) = $0 { q } else { nil } } }
        var found: Login.Found? { all.lazy.compactMap { if case .alreadySignedIn(let f) = $0 { f } else { nil } }.first }
    }

    static var browser: SettingsFlags {
        var flags = SettingsFlags()
        flags.flow = .browser
        return flags
    }

    @Test func aValidSessionMadeWithTheseSettingsHasNothingToDo() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        try SessionFixtures.store(SessionFixtures.state(), in: fake.keyring)
        let events = Events()
        let result = try KCAuthContext(adapters: fake.adapters).login(SettingsFlags())
            .run(Login.Options(wantsToken: true), notify: events.add)
        guard case .alreadySignedIn(let token?) = result else { Issue.record("\(result)"); return }
        #expect(token.accessToken == "at-1")
        #expect(events.found?.user == "alice" && events.found?.profile == "default" && events.found?.health == .valid)
        #expect(fake.transport.requests.isEmpty && fake.opener.opened.isEmpty, "no provider, no browser")
        #expect(fake.keyring.writes.count == 1, "only the fixture's own write")
    }

    @Test func forceSignsInAgainAndKubectlIsToldNothing() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        try SessionFixtures.store(SessionFixtures.state(), in: fake.keyring)
        fake.serveProvider()
        fake.browserSignsIn()
        let events = Events()
        let result = try KCAuthContext(adapters: fake.adapters).login(Self.browser).run(Login.Options(force: true), notify: events.add)
        guard case .signedIn(let output) = result else { Issue.record("\(result)"); return }
        #expect(output.state.issuer == Fixtures.issuer && events.found == nil)

        // kubectl comes only when its token failed; a session found under the lock is used silently.
        let quiet = Events()
        let again = try KCAuthContext(adapters: fake.adapters).login(SettingsFlags()).run(Login.Options(kubectl: true), notify: quiet.add)
        guard case .alreadySignedIn(token: nil) = again else { Issue.record("the session just stored serves kubectl: \(again)"); return }
        #expect(quiet.found == nil && !quiet.all.contains { if case .signingInForKubectl = $0 { true } else { false } })
    }

    @Test func kubectlWithoutASessionSaysItSignsIn() throws {
        let fake = FakeAdapters(config: FakeAdapters.profileConfig)
        fake.serveProvider()
        fake.browserSignsIn()
        let events = Events()
        let result = try KCAuthContext(adapters: fake.adapters).login(Self.browser).run(Login.Options(kubectl: true), notify: events.add)
        guard case .signedIn = result else { Issue.record("\(result)"); return }
        #expect(events.all.contains { if case .signingInForKubectl = $0 { true } else { false } })
    }

    @Test func firstRunQuestionsAreAnsweredThroughTheTerminalPort() throws {
        let fake = FakeAdapters()
        fake.serveProvider()
        fake.browserSignsIn()
        fake.terminal = ScriptedTerminal(lines: ["", Fixtures.issuer + "/", "kcauth"])
        let events = Events()
        let result = try KCAuthContext(adapters: fake.adapters).login(Self.browser).run(Login.Options(canAsk: true), notify: events.add)
        guard case .signedIn(let output) = result else { Issue.record("\(result)"); return }
        #expect(output.state.issuer == Fixtures.issuer && output.claims.displayName == "alice")
        #expect(events.questions == [.issuer, .issuer, .clientID], "an empty answer asks again")
        #expect(events.all.contains { if case .providerFound(Fixtures.issuer) = $0 { true } else { false } })
        #expect(events.all.contains { if case .firstRun(missingIssuer: true) = $0 { true } else { false } })
        #expect(fake.settings.text.contains("issuer = \(Fixtures.issuer)") && fake.settings.text.contains("client_id = kcauth"))
    }

    @Test func nobodyToAskNamesWhatIsMissing() throws {
        let fake = FakeAdapters()
        fake.terminal = ScriptedTerminal(interactive: true, lines: [Fixtures.issuer])
        #expect { try KCAuthContext(adapters: fake.adapters).login(SettingsFlags()).run(Login.Options(canAsk: false)) { _ in } } throws: {
            ($0 as? KCAuthError)?.remedy == .loginWithSettings(profile: "default", issuer: true, clientID: true)
        }
        #expect(fake.terminal.asked == 0 && fake.transport.requests.isEmpty)
    }

    @Test func everyLoginChecksTheTargetTheSameWay() throws {
        let context = KCAuthContext(adapters: FakeAdapters(config: "[default]\nissuer = \(Fixtures.issuer)\n").adapters)
        let profile = try context.resolve()
        #expect { try profile.loginTarget() } throws: { ($0 as? KCAuthError)?.remedy == .giveClientID }
        #expect { try context.clientLogin(profile).run { _ in } } throws: { ($0 as? KCAuthError)?.remedy == .giveClientID }
    }
}
