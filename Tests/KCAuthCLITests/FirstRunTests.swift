import Foundation
import Testing
@testable import KCAuthCLI
import KCAuth
import KCAuthCore
import KCAuthTestSupport

/// The first run in-process (`FirstRunQuestions`): `kcauth login` with no configuration asks on a
/// terminal (a scripted person here; a pseudo-terminal in
/// Tests/Integration/test_login_shortcuts.py), and says the complete command when nobody can be
/// asked.
@Suite struct FirstRunTests {
    let fake = FakeAdapters()

    init() {
        fake.serveProvider()
        fake.browserSignsIn()
    }

    func run(_ args: [String], tty: Bool) -> (code: Int32, out: String, err: String) {
        let console = RecordingConsole(tty: tty)
        let code = KCAuthMain.run(arguments: args, services: Services(context: KCAuthContext(adapters: fake.adapters), console: console))
        return (code, console.stdout, console.stderr)
    }

    @Test func anIssuerAndAClientIDTypedAtTheTerminalAreUsedAndSaved() throws {
        fake.terminal = ScriptedTerminal(lines: ["", Fixtures.issuer + "/", "kcauth"])
        let r = run(["login", "--browser"], tty: true)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("Found the provider: \(Fixtures.issuer)") && r.err.contains("Logged in to \(Fixtures.issuer) as alice"))
        #expect(fake.settings.text.contains("issuer = \(Fixtures.issuer)") && fake.settings.text.contains("client_id = kcauth"))
        #expect(fake.terminal.asked == 3, "an empty answer asks again")
    }

    @Test func aPipeOrNoTerminalGetsTheCompleteCommand() {
        fake.terminal = ScriptedTerminal(interactive: true, lines: [Fixtures.issuer])
        let r = run(["login"], tty: false)  // stderr is not a terminal: nobody sees a question
        #expect(r.code == 2)
        #expect(r.err.contains("run `kcauth login --issuer https://sso.example.com/realms/REALM --client-id CLIENT`"))
        #expect(fake.terminal.asked == 0 && fake.transport.requests.isEmpty)
    }

    @Test func giveUpAfterFiveUnusableAnswers() {
        fake.terminal = ScriptedTerminal(lines: Array(repeating: "ftp://nope", count: 6))
        let r = run(["login"], tty: true)
        #expect(r.code == 2 && r.err.contains("no usable answer after 5 tries"))
        #expect(fake.settings.text.isEmpty)
    }
}
