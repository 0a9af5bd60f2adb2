import Testing
@testable import KCAuthCore

/// The pure parts of signing in from anywhere: the browser command,
/// WSL, and a browser that cannot reach the listener (paste-back).
@Suite struct BrowserCommandTests {
    @Test(arguments: [
        ("firefox --private-window %s", ["firefox", "--private-window", "URL"]),
        ("firefox", ["firefox", "URL"]),
        ("  chromium\t--profile-directory='Profile 2'  ", ["chromium", "--profile-directory=Profile 2", "URL"]),
        ("'/opt/My Browser/run' --new %s --title \"a \\\"b\\\" \\$c\"", ["/opt/My Browser/run", "--new", "URL", "--title", "a \"b\" $c"]),
        ("open\\ me %s%%", ["open me", "URL%"]),
        ("cmd '' %s", ["cmd", "", "URL"]),
        ("cmd \"\\n\" %s", ["cmd", "\\n", "URL"]),
        ("echo $HOME `id` ; rm %s", ["echo", "$HOME", "`id`", ";", "rm", "URL"]),
    ] as [(String, [String])])
    func splitsLikeAShellWithoutRunningOne(text: String, argv: [String]) throws {
        #expect(try BrowserCommand(text, origin: "browser_command").arguments(for: "URL") == argv)
    }

    @Test func theURLIsOneArgumentWhateverItHolds() throws {
        let url = "http://127.0.0.1:1/start/x?a=1&b=2;$(id)|'\" "
        #expect(try BrowserCommand("b --u=%s", origin: "browser_command").arguments(for: url) == ["b", "--u=" + url])
    }

    @Test(arguments: ["", "   ", "firefox 'open", "firefox \"open", "firefox \\"])
    func malformedCommandsAreUsageErrors(text: String) {
        #expect(throws: KCAuthError.self) { try BrowserCommand(text, origin: "browser_command") }
        do { _ = try BrowserCommand(text, origin: "browser_command") } catch let error as KCAuthError { #expect(error.code == .usage) } catch {}
    }
}

@Suite struct WSLDetectionTests {
    @Test func theDistroVariableSaysWSL() {
        #expect(WSLDetection.isWSL(environment: ["WSL_DISTRO_NAME": "Ubuntu"], kernelRelease: "6.1.0-18-amd64"))
        #expect(!WSLDetection.isWSL(environment: ["WSL_DISTRO_NAME": " "], kernelRelease: "6.1.0-18-amd64"))
    }

    @Test(arguments: [("5.15.146.1-microsoft-standard-WSL2\n", true), ("4.4.0-19041-Microsoft", true),
                      ("6.1.0-18-amd64\n", false)] as [(String, Bool)])
    func theKernelReleaseSaysWSL(release: String, wsl: Bool) {
        #expect(WSLDetection.isWSL(environment: [:], kernelRelease: release) == wsl)
        #expect(!WSLDetection.isWSL(environment: [:], kernelRelease: nil))
    }

    @Test func wslChoosesTheBrowserFlowWithoutADisplay() {
        let choice = FlowSelector.choose(flag: nil, environmentSetting: nil, profile: nil, qrRequested: false, noBrowser: false,
                                         environment: ["WSL_DISTRO_NAME": "Debian"], wsl: true)
        #expect(choice == FlowChoice(.browser, .wsl, detail: "WSL_DISTRO_NAME=Debian"))
        #expect(choice.fallsBackToDevice)
        // CI and SSH still win: nobody sits at that Windows desktop.
        #expect(FlowSelector.automatic(["CI": "true"], wsl: true).flow == .device)
    }

    @Test func aBrowserCommandChoosesTheBrowserFlow() {
        #expect(FlowSelector.automatic([:], browserCommand: true) == FlowChoice(.browser, .browserCommand))
    }

    @Test func sshWithoutADisplayCannotShowABrowserHere() {
        #expect(FlowSelector.browserIsRemote(["SSH_CONNECTION": "a b c d"]))
        #expect(FlowSelector.browserIsRemote(["SSH_TTY": "/dev/pts/1", "BROWSER": "firefox"]))
        #expect(!FlowSelector.browserIsRemote(["SSH_TTY": "/dev/pts/1", "DISPLAY": "localhost:10.0"]))
        #expect(!FlowSelector.browserIsRemote(["DISPLAY": ":0"]))
    }
}

@Suite struct PastedRedirectTests {
    let redirect = "http://127.0.0.1:41237/callback"

    @Test(arguments: [
        "http://127.0.0.1:41237/callback?code=abc&state=s1&iss=https%3A%2F%2Fsso",
        "  http://127.0.0.1:41237/callback?code=abc&state=s1&iss=https%3A%2F%2Fsso\r",
        "127.0.0.1:41237/callback?code=abc&state=s1&iss=https%3A%2F%2Fsso",
        "<http://127.0.0.1:41237/callback?code=abc&state=s1&iss=https%3A%2F%2Fsso>",
        "'http://127.0.0.1:41237/callback?code=abc&state=s1&iss=https%3A%2F%2Fsso#'",
    ])
    func theWholeAddressBecomesACallback(line: String) throws {
        let request = try PastedRedirect.parse(line, redirectURI: redirect).get()
        #expect(request.parameters == ["code": "abc", "state": "s1", "iss": "https://sso"])
    }

    @Test(arguments: [
        ("", PastedRedirect.Problem.empty),
        ("hello", .notAnAddress),
        ("http://127.0.0.1:41237/callback code=1", .notAnAddress),
        ("https://sso.example.com/realms/demo?state=1", .notAnAddress),
        ("http://127.0.0.1:41237/callback", .noParameters),
        ("http://127.0.0.1:41237/callback?code=abc", .noState),
        ("http://127.0.0.1:50000/callback?code=abc&state=s1", .otherAddress(address: "http://127.0.0.1:50000/callback")),
        ("http://127.0.0.1:41237/logged-out?state=s1", .otherAddress(address: "http://127.0.0.1:41237/logged-out")),
        ("http://127.0.0.1:41237/callback?state=" + String(repeating: "x", count: 9000), .tooLong),
    ] as [(String, PastedRedirect.Problem)])
    func aWrongPasteHasAReason(line: String, problem: PastedRedirect.Problem) {
        #expect(throws: problem) { try PastedRedirect.parse(line, redirectURI: redirect).get() }
        #expect(!problem.reason.isEmpty)
    }

    /// What the parameters mean is the judge's business, exactly as for a redirect.
    @Test func aPastedAnswerGoesThroughTheCallbackJudge() throws {
        let judge = CallbackJudge(expectedState: "s1", issuer: "https://sso", issRequired: true)
        let denied = try PastedRedirect.parse("\(redirect)?error=access_denied&state=s1&iss=https%3A%2F%2Fsso", redirectURI: redirect).get()
        guard case .failed(let error) = judge.judge(denied) else { Issue.record("not failed"); return }
        #expect(error.code == .accessDenied)
        let foreign = try PastedRedirect.parse("\(redirect)?code=c&state=other&iss=https%3A%2F%2Fsso", redirectURI: redirect).get()
        #expect(judge.judge(foreign) == .notOurs)
    }
}
