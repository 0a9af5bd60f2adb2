import Foundation
import Testing
@testable import KCAuth
@testable import KCAuthCLI
import KCAuthSystem
import KCAuthCore
import KCAuthTestSupport

/// `login`'s flow options and what it prints while a device sign-in waits.
@Suite struct LoginFlowOptionsTests {
    struct Chosen {
        let profile: ResolvedProfile
        let choice: FlowChoice
        /// What the login keeps, for a profile that saved `saved`.
        func remembered(_ saved: ProfileSettings) -> LoginFlow? {
            var profile = profile
            profile.saved = saved
            return Login.rememberedFlow(profile)
        }
    }

    func options(_ args: [String], saved: ProfileSettings = ProfileSettings(), environment: [String: String] = [:]) throws -> Chosen {
        guard case .run(let parsed) = try ArgumentParser.parse(["login"] + args) else { throw KCAuthError(.internal, "not a run") }
        let options = try LoginFlowOptions(parsed)
        var config = ConfigDocument()
        saved.apply(to: &config, profile: "default")
        let resolver = SettingsResolver(environment: environment, config: config, configPath: "c", workingDirectory: "/")
        let profile = try resolver.resolve(SettingsOptions.flags(parsed, flow: options.flag, workingDirectory: nil))
        let login = Login.Options(noBrowser: parsed.flag(LoginFlowOptions.noBrowser), qr: options.qrRequested)
        return Chosen(profile: profile, choice: Login.flowChoice(profile, login, environment: environment, wsl: false))
    }

    @Test func flagsForceAFlowAndAreRemembered() throws {
        #expect(try options(["--device"]).choice == FlowChoice(.device, .flag))
        #expect(try options(["--flow", "browser"]).choice == FlowChoice(.browser, .flag))
        #expect(try options(["--device"]).remembered(ProfileSettings(flow: .browser)) == .device)
        #expect(try options(["--flow=auto"]).remembered(ProfileSettings(flow: .device)) == nil, "--flow auto forgets")
        #expect(try options([]).remembered(ProfileSettings(flow: .device)) == .device, "no flag: the profile keeps its choice")
        #expect(try options(["--qr"]).remembered(ProfileSettings()) == nil, "--qr is one-off")
        #expect(try options(["--device", "--flow", "device"]).choice.flow == .device, "saying it twice is fine")
    }

    @Test func theEnvironmentAndProfileCountWhenNoFlagDoes() throws {
        #expect(try options([], environment: ["KCAUTH_FLOW": "device", "DISPLAY": ":0"]).choice == FlowChoice(.device, .environment))
        #expect(try options([], saved: ProfileSettings(flow: .device), environment: ["DISPLAY": ":0"]).choice == FlowChoice(.device, .profile))
        #expect(try options([], environment: ["SSH_TTY": "/dev/pts/0"]).choice == FlowChoice(.device, .sshWithoutDisplay))
    }

    @Test(arguments: [
        (["--browser", "--device"], [String: String](), "--browser, --device and --flow ask for different flows"),
        (["--device", "--flow", "browser"], [:], "--browser, --device and --flow ask for different flows"),
        (["--browser", "--qr"], [:], "--qr shows the device flow's link, and the browser flow was asked for"),
        ([], ["KCAUTH_FLOW": "pigeon"], "KCAUTH_FLOW must be auto, browser or device, not 'pigeon'"),
    ])
    func contradictionsAreUsageErrors(args: [String], environment: [String: String], message: String) {
        #expect { try options(args, environment: environment) } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .usage && e?.message == message
        }
    }
}

@Suite struct LoginProgressTests {
    static let prompt = FlowDriver.DevicePrompt(try! JSONDecoder().decode(DeviceAuthorizationResponse.self, from: Data("""
        {"device_code":"d","user_code":"WDJB-MJHT","verification_uri":"https://sso.example.test/device",
         "verification_uri_complete":"https://sso.example.test/device?user_code=WDJB-MJHT","expires_in":600,"interval":5}
        """.utf8)))

    func run(_ choice: FlowChoice, tty: Bool, qr: Bool = false, environment: [String: String] = ["TERM": "xterm"]) -> String {
        let console = DeviceTestConsole(tty: tty)
        let progress = LoginProgress(console: console, qrRequested: qr, environment: environment, qrCode: TerminalQRRenderer())
        progress.chose(choice, openBrowser: true)
        progress.show(.starting(choice.flow))
        progress.show(.deviceCode(Self.prompt))
        for remaining in [600.0, 599.5, 599.0, 598.0] { progress.show(.devicePolling(.waiting(remaining: remaining))) }
        progress.show(.devicePolling(.slowedDown(interval: 10)))
        progress.show(.devicePolling(.waiting(remaining: 588)))
        progress.end()
        return console.stderr
    }

    @Test func offATerminalEverythingIsPlainLines() {
        let text = run(FlowChoice(.device, .continuousIntegration), tty: false)
        #expect(text.hasPrefix("Using the device flow: running in CI (CI=true).\n"))
        #expect(text.contains("\n    https://sso.example.test/device?user_code=WDJB-MJHT\n"))
        #expect(text.contains("\n    WDJB-MJHT\n"))
        #expect(text.contains("The code expires in 10 minutes.\nWaiting for the sign-in to be approved…\n"))
        #expect(text.contains("The provider asked kcauth to poll more slowly: every 10 s from now on.\n"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control characters")
        #expect(!text.contains("█") && !text.contains("▀"), "no QR code in a log unless asked")
        #expect(text.hasSuffix("\n"))
    }

    @Test func onATerminalOneStatusLineCountsDown() {
        let text = run(FlowChoice(.device, .flag), tty: true)
        #expect(text.contains("\r\u{1B}[KWaiting for the sign-in to be approved… 10:00 left (Ctrl-C stops)"))
        #expect(text.contains("9:59 left") && text.contains("9:58 left") && text.contains("9:48 left"))
        #expect(text.components(separatedBy: "9:59 left").count == 2, "redrawn only when the second changes")
        #expect(text.contains("\r\u{1B}[KThe provider asked"), "a message clears the status line first")
        #expect(text.hasSuffix("\r\u{1B}[K"), "the terminal is left on a clean line")
        #expect(text.contains("\u{1B}[1mWDJB-MJHT\u{1B}[0m"), "the code stands out")
        #expect(!text.contains("█"), "--device alone shows no QR code")
    }

    @Test func theQRCodeAppearsWhenNoBrowserCanBeShownOrWhenAsked() {
        #expect(run(FlowChoice(.device, .sshWithoutDisplay), tty: true).contains("\u{1B}[30;107m"))
        let asked = run(FlowChoice(.device, .flag), tty: false, qr: true)
        #expect(asked.contains("█") && !asked.contains("\u{1B}"))
        #expect(!run(FlowChoice(.device, .sshWithoutDisplay), tty: true, environment: ["TERM": "dumb"]).contains("\u{1B}"),
                "TERM=dumb: plain text, no countdown")
    }

    @Test func anUnreachableProviderIsSaidOnceAndSoIsItsReturn() {
        let console = DeviceTestConsole(tty: true)
        let progress = LoginProgress(console: console, qrRequested: false, environment: ["TERM": "xterm"], qrCode: NoQRCode())
        progress.chose(FlowChoice(.device, .flag), openBrowser: false)
        progress.show(.devicePolling(.waiting(remaining: 500)))
        var refused = KCAuthError(.network, "cannot connect to 127.0.0.1:8180: connection refused")
        refused.transient = true
        progress.show(.devicePolling(.unreachable(refused)))
        progress.show(.devicePolling(.waiting(remaining: 480)))
        progress.show(.devicePolling(.reachable))
        #expect(console.stderr.contains("\r\u{1B}[KThe provider cannot be reached (cannot connect to 127.0.0.1:8180: connection refused); "
                                        + "kcauth keeps trying until the code expires."), "on a clean line")
        #expect(console.stderr.contains("\r\u{1B}[KThe provider answers again; still waiting for the sign-in to be approved.\n"))
    }

    @Test func theFixedPortLineIsShownOnlyWhereItApplies() {
        for applies in [true, false] {
            let console = DeviceTestConsole(tty: false)
            let progress = LoginProgress(console: console, qrRequested: false, environment: [:], qrCode: NoQRCode())
            progress.show(.waiting(redirectURI: "http://127.0.0.1:41237/callback", timeout: 300, fixedPortMayHelp: applies))
            #expect(console.stderr.contains("--port") == applies, "\(console.stderr)")
            #expect(console.stderr.hasPrefix("Waiting for the sign-in response on http://127.0.0.1:41237/callback (up to 300 s)…\n"))
        }
    }

    @Test func durations() {
        #expect(LoginProgress.duration(600) == "10 minutes")
        #expect(LoginProgress.duration(90) == "90 seconds")
        #expect(LoginProgress.duration(1) == "1 second")
    }
}

final class DeviceTestConsole: Console, @unchecked Sendable {
    let stderrIsTTY: Bool
    var stderr = ""
    init(tty: Bool) { stderrIsTTY = tty }
    func out(_ text: String) {}
    func err(_ text: String) { stderr += text }
}

/// A connection the listener refused (another user's, `LoopbackPeer`) is said at once.
@Suite struct RefusedConnectionWordsTests {
    @Test func aRefusalIsOneLineNamingTheUid() {
        let console = DeviceTestConsole(tty: false)
        let progress = LoginProgress(console: console, qrRequested: false, environment: [:], qrCode: NoQRCode())
        progress.chose(FlowChoice(.browser, .flag), openBrowser: true)
        progress.show(.connectionRefused(RefusedConnection(uid: 1001)))
        progress.show(.connectionRefused(RefusedConnection(uid: nil)))
        #expect(console.stderr == """
            A connection from uid 1001 was refused: only your own user and root may answer this sign-in. Still waiting.
            A connection whose owner could not be established was refused: only your own user and root may answer this sign-in. Still waiting.

            """)
    }
}
