import Testing
@testable import KCAuthCore
import KCAuthTestSupport

/// The choice of login flow as a table: environment and settings in, flow and reason out.
@Suite struct FlowSelectionTests {
    typealias R = FlowChoice.Reason
    static let ssh = "192.0.2.7 50022 192.0.2.1 22"

    @Test(arguments: [
        ([:], LoginFlow.device, R.noDisplay),
        (["DISPLAY": ":0"], .browser, .display),
        (["WAYLAND_DISPLAY": "wayland-0"], .browser, .display),
        (["DISPLAY": "", "WAYLAND_DISPLAY": " "], .device, .noDisplay),
        (["BROWSER": "w3m"], .browser, .browserVariable),
        (["BROWSER": "none", "DISPLAY": ":0"], .device, .browserIsNone),
        (["BROWSER": "None"], .device, .browserIsNone),
        (["CI": "true", "DISPLAY": ":0", "BROWSER": "firefox"], .device, .continuousIntegration),
        (["CI": "1"], .device, .continuousIntegration),
        (["CI": "false", "DISPLAY": ":0"], .browser, .display),
        (["SSH_CONNECTION": ssh], .device, .sshWithoutDisplay),
        (["SSH_TTY": "/dev/pts/3", "BROWSER": "firefox"], .device, .sshWithoutDisplay),
        (["SSH_CONNECTION": ssh, "DISPLAY": "localhost:10.0"], .browser, .sshWithForwardedDisplay),
        (["SSH_CONNECTION": ssh, "BROWSER": "none", "DISPLAY": "localhost:10.0"], .device, .browserIsNone),
        (["CI": "true", "SSH_CONNECTION": ssh], .device, .continuousIntegration),
    ] as [([String: String], LoginFlow, R)])
    func automaticChoice(environment: [String: String], flow: LoginFlow, reason: R) {
        let choice = FlowSelector.choose(flag: nil, environmentSetting: nil, profile: nil, qrRequested: false, noBrowser: false,
                                         environment: environment)
        #expect(choice.flow == flow)
        #expect(choice.reason == reason)
    }

    @Test(arguments: [
        // flag, KCAUTH_FLOW, profile, --qr, --no-browser → flow, reason
        (FlowSetting.device, nil, nil, false, false, LoginFlow.device, R.flag),
        (.browser, .device, .device, false, false, .browser, .flag),
        (.auto, .device, .device, false, false, .browser, .display),
        (nil, .device, .browser, false, false, .device, .environment),
        (nil, .auto, .device, false, false, .browser, .display),
        (nil, nil, .device, false, false, .device, .profile),
        (nil, nil, nil, true, false, .device, .qrRequested),
        (nil, .browser, .browser, true, false, .device, .qrRequested),
        (.device, nil, nil, true, false, .device, .flag),
        (nil, nil, nil, false, true, .browser, .noBrowserFlag),
        (nil, nil, .device, false, true, .device, .profile),
    ] as [(FlowSetting?, FlowSetting?, LoginFlow?, Bool, Bool, LoginFlow, R)])
    func precedence(flag: FlowSetting?, environmentSetting: FlowSetting?, profile: LoginFlow?, qr: Bool, noBrowser: Bool,
                    flow: LoginFlow, reason: R) {
        let choice = FlowSelector.choose(flag: flag, environmentSetting: environmentSetting, profile: profile,
                                         qrRequested: qr, noBrowser: noBrowser, environment: ["DISPLAY": ":0"])
        #expect(choice.flow == flow)
        #expect(choice.reason == reason)
    }

    @Test func onlyAnAutomaticBrowserChoiceFallsBackToTheDeviceFlow() {
        #expect(FlowChoice(.browser, .display).fallsBackToDevice)
        #expect(FlowChoice(.browser, .browserVariable).fallsBackToDevice)
        #expect(FlowChoice(.browser, .sshWithForwardedDisplay).fallsBackToDevice)
        #expect(!FlowChoice(.browser, .flag).fallsBackToDevice)
        #expect(!FlowChoice(.browser, .noBrowserFlag).fallsBackToDevice)
        #expect(!FlowChoice(.device, .noDisplay).fallsBackToDevice)
    }

    @Test func theQRCodeComesUnaskedOnlyOnATerminalWithNoBrowser() {
        for reason: R in [.noDisplay, .sshWithoutDisplay, .continuousIntegration, .browserIsNone, .browserFailed] {
            #expect(FlowChoice(.device, reason).showsQRCode(requested: false, stderrIsTTY: true))
            #expect(!FlowChoice(.device, reason).showsQRCode(requested: false, stderrIsTTY: false), "never in a log unless asked")
        }
        #expect(!FlowChoice(.device, .flag).showsQRCode(requested: false, stderrIsTTY: true), "--device alone: a browser may be right here")
        #expect(FlowChoice(.device, .flag).showsQRCode(requested: true, stderrIsTTY: false))
        #expect(!FlowChoice(.browser, .display).showsQRCode(requested: true, stderrIsTTY: true))
    }

    @Test func everyReasonReadsAsOneLine() {
        let reasons: [R] = [.flag, .environment, .profile, .qrRequested, .noBrowserFlag, .browserIsNone, .continuousIntegration,
                            .sshWithoutDisplay, .noDisplay, .display, .browserVariable, .sshWithForwardedDisplay, .browserFailed]
        for reason in reasons {
            for flow in LoginFlow.allCases {
                let line = FlowChoice(flow, reason).explanation
                #expect(!line.isEmpty && !line.contains("\n") && line.contains("the \(flow.rawValue) flow"))
            }
        }
        #expect(FlowChoice(.device, .continuousIntegration, detail: "CI=1").explanation == "Using the device flow: running in CI (CI=1).")
    }
}

/// The profile's remembered `flow` in the configuration file.
@Suite struct ProfileFlowSettingTests {
    func settings(_ text: String) throws -> ProfileSettings {
        try ProfileSettings(try ConfigDocument(parsing: text, path: "/c"), profile: "default", path: "/c")
    }

    @Test func readsBrowserDeviceAndAuto() throws {
        #expect(try settings("[default]\nflow = device\n").flow == .device)
        #expect(try settings("[default]\nflow = browser\n").flow == .browser)
        #expect(try settings("[default]\nflow = auto\n").flow == nil)
        #expect(try settings("[default]\nissuer = https://x\n").flow == nil)
    }

    @Test func aBadValueNamesTheFileAndProfile() {
        #expect { try settings("[default]\nflow = carrier-pigeon\n") } throws: { error in
            let e = error as? KCAuthError
            return e?.code == .configuration && e?.message == "/c:2: profile [default]: flow 'carrier-pigeon' is not auto, browser or device"
        }
    }

    @Test func applyWritesAndClearsIt() throws {
        var doc = try ConfigDocument(parsing: "[default]\nflow = device\n", path: "/c")
        var s = try ProfileSettings(doc, profile: "default", path: "/c")
        s.flow = .browser
        s.apply(to: &doc, profile: "default")
        #expect(doc.text.contains("flow = browser"))
        s.flow = nil
        s.apply(to: &doc, profile: "default")
        #expect(!doc.text.contains("flow"))
    }
}
