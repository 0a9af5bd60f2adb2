import KCAuthCore

/// `login`'s words on stderr: which flow and why, the browser URL or the device code, and the
/// wait. On a terminal the device flow's wait is one status line counting down; anywhere else
/// every message is a plain line, with no control characters, for logs and CI.
// @unchecked: one login drives it from one thread at a time (the store and flow callbacks).
final class LoginProgress: @unchecked Sendable {
    private let console: any Console
    private var openBrowser = true
    private let qrRequested: Bool
    private let qrCode: any QRCodeRenderer
    /// A terminal that understands `\r` and escape sequences.
    private let interactive: Bool
    private let colour: Bool
    /// Which flow and why: said when the flow starts (`Login.Event.flowChosen` comes first).
    private var choice = FlowChoice(.browser, .flag)
    private var statusShown = false
    private var lastSecond: Int?
    /// The provider's answer came (a code or the device grant's tokens): from now on the login
    /// may store a session. Read by ``interrupted()`` on the thread that takes the signal.
    private let answered = Answered()

    init(console: any Console, qrRequested: Bool, environment: [String: String], qrCode: any QRCodeRenderer) {
        self.console = console
        self.qrRequested = qrRequested
        self.qrCode = qrCode
        interactive = console.stderrIsTTY && environment["TERM"] != "dumb"
        colour = interactive && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// The login chose its flow; `openBrowser`: a browser is started (else the URL is only shown).
    func chose(_ choice: FlowChoice, openBrowser: Bool) {
        self.choice = choice
        self.openBrowser = openBrowser
    }

    func show(_ event: FlowDriver.Event) {
        switch event {
        case .starting:
            console.err(choice.explanation + "\n")
        case .authorizationURL(let url):
            // With a browser started here, the URL is kcauth's short local one (it works in any
            // browser on this machine); otherwise the provider's, to open anywhere. The person
            // must be able to open it: the terminal is this URL's wire.
            console.err(openBrowser
                ? "Opening the browser to sign in. If it does not open, or for another browser here, visit:\n  \(url.reveal())\n"
                : "Open this URL in a browser to sign in:\n  \(url.reveal())\n")
        case .browserFailed(let error):
            endStatusLine()
            openBrowser = false  // a URL shown from now on is one to open by hand
            console.err(Self.sentence(MessageWords.message(error)) + "; open the sign-in URL yourself.\n")
        case .waiting(let redirectURI, let timeout, let fixedPortMayHelp):
            console.err("Waiting for the sign-in response on \(redirectURI) (up to \(Int(timeout)) s)…\n"
                        + (fixedPortMayHelp ? RemedyWords.fixedPortWhileWaiting + "\n" : ""))
        case .countdown(let remaining):
            showCountdown("Waiting for the browser…", remaining: remaining, stop: "Ctrl-C to cancel")
        case .pastePrompt:
            endStatusLine()
            console.err("""
                If the browser is on another machine: after signing in there, it fails to load a page on \
                127.0.0.1. Copy the address from its address bar and paste it here (Ctrl-C to cancel):

                """)
            console.err(Self.pastePrompt)
        case .pasteRejected(let reason):
            console.err("Not taken: \(reason).\n" + Self.pastePrompt)
        case .connectionRefused(let connection):
            endStatusLine()
            console.err(Self.refusal(connection) + "\n")
        case .pasteEnded:
            console.err("\n(The terminal input ended; still waiting for the browser.)\n")
        case .switchingToDevice(let error):
            choice = FlowChoice(.device, .browserFailed)
            console.err(Self.sentence(MessageWords.message(error)) + "; switching to the device flow.\n")
        case .deviceCode(let prompt):
            showDevicePrompt(prompt)
        case .devicePolling(.waiting(let remaining)):
            showWaiting(remaining: remaining)
        case .devicePolling(.slowedDown(let interval)):
            endStatusLine()
            console.err("The provider asked kcauth to poll more slowly: every \(Int(interval)) s from now on.\n")
        case .devicePolling(.unreachable(let failure)):
            endStatusLine()
            console.err("The provider cannot be reached (\(Sanitize.oneLine(MessageWords.message(failure), limit: 300))); "
                        + "kcauth keeps trying until the code expires.\n")
        case .devicePolling(.reachable):
            endStatusLine()
            console.err("The provider answers again; still waiting for the sign-in to be approved.\n")
        case .received:
            answered.set()
            endStatusLine()
        }
    }

    /// Leaves the terminal on a fresh line, whatever happens next (success, or an error line).
    func end() { endStatusLine() }

    /// A signal ends the login (Ctrl-C, a hang-up, a supervisor's SIGTERM): one line says so,
    /// on a line of its own — on a terminal the countdown and the `^C` the terminal echoed are
    /// wiped first. Before the provider answered nothing can have been stored; after, the
    /// session may have been, so the line points at `status` instead of promising.
    func interrupted() {
        let line = answered.isSet
            ? "interrupted while the sign-in was being finished; \(QuotedCommand(StatusCommand.spec).quoted) shows what was kept"
            : "cancelled; nothing stored"
        console.err((interactive ? "\r\u{1B}[K" : "") + line + "\n")
    }

    private func showDevicePrompt(_ prompt: FlowDriver.DevicePrompt) {
        let link = Sanitize.oneLine(prompt.linkToOpen, limit: 2000)
        let code = Sanitize.oneLine(prompt.userCode, limit: 100)
        let shownCode = colour ? "\u{1B}[1m\(code)\u{1B}[0m" : code
        var text = "To sign in, open this link on any device (a phone, another computer):\n\n    \(link)\n\n"
        if prompt.verificationURIComplete != nil {
            text += "and check that the page shows the code\n\n    \(shownCode)\n\n"
            text += "(or open \(Sanitize.oneLine(prompt.verificationURI, limit: 2000)) and type the code in).\n"
        } else {
            text += "and enter the code\n\n    \(shownCode)\n\n"
        }
        console.err(text)
        if choice.showsQRCode(requested: qrRequested, stderrIsTTY: console.stderrIsTTY) {
            do {
                console.err("\n" + (try qrCode.render(prompt.linkToOpen, colour: colour)) + "\n")
            } catch let error as KCAuthError {
                console.err("(No QR code: \(Sanitize.oneLine(MessageWords.message(error))).)\n")
            } catch {
                console.err("(No QR code.)\n")
            }
        }
        console.err("The code expires in \(Self.duration(prompt.expiresIn)).\n")
        if !interactive { console.err("Waiting for the sign-in to be approved…\n") }
    }

    /// One line for a refused connection to the listener.
    static func refusal(_ connection: RefusedConnection) -> String {
        let who = connection.uid.map { "from uid \($0)" } ?? "whose owner could not be established"
        return "A connection \(who) was refused: only your own user and root may answer this sign-in. Still waiting."
    }

    static let pastePrompt = "Address: "

    private func showWaiting(remaining: Double) {
        showCountdown("Waiting for the sign-in to be approved…", remaining: remaining, stop: "Ctrl-C stops")
    }

    /// One status line, rewritten in place once a second; nothing when not on a terminal (the
    /// plain "Waiting…" line was printed already).
    private func showCountdown(_ text: String, remaining: Double, stop: String) {
        guard interactive else { return }
        let seconds = max(0, Int(remaining.rounded(.up)))
        guard seconds != lastSecond else { return }
        lastSecond = seconds
        statusShown = true
        let clock = "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
        console.err("\r\u{1B}[K\(text) \(clock) left (\(stop))")
    }

    private func endStatusLine() {
        guard statusShown else { return }
        statusShown = false
        lastSecond = nil
        console.err("\r\u{1B}[K")
    }

    /// "10 minutes", "90 seconds".
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s >= 120 { return "\((s + 30) / 60) minutes" }
        return s == 1 ? "1 second" : "\(s) seconds"
    }

    /// A one-line message as the start of a sentence: "cannot start a browser (…)" → "Cannot start…".
    static func sentence(_ message: String) -> String {
        let line = Sanitize.oneLine(message)
        return line.prefix(1).uppercased() + line.dropFirst()
    }
}
