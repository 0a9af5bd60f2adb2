/// The two ways `kcauth login` signs in.
public enum LoginFlow: String, Sendable, CaseIterable {
    /// Authorization code + PKCE with a loopback redirect (RFC 8252): needs a browser on this machine.
    case browser
    /// Device authorization grant (RFC 8628): the user signs in on any other device.
    case device
}

/// A setting of `--flow` or `KCAUTH_FLOW`: a flow, or `auto` to let kcauth choose.
public enum FlowSetting: String, Sendable, CaseIterable {
    case auto, browser, device

    public var flow: LoginFlow? { LoginFlow(rawValue: rawValue) }
}

/// Which flow a login uses, and why, in words for the one line kcauth prints about it.
public struct FlowChoice: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        // Asked for.
        case flag, environment, profile, qrRequested, noBrowserFlag
        // Chosen: no way to show a browser here.
        case browserIsNone, continuousIntegration, sshWithoutDisplay, noDisplay
        // Chosen: a browser can be shown.
        case display, browserVariable, sshWithForwardedDisplay
        /// Not from `FlowSelector`: the browser launcher failed, so the device flow took over.
        case browserFailed
    }

    public var flow: LoginFlow
    public var reason: Reason
    /// For the messages: the variable that decided (`CI=true`, `DISPLAY=:0`), if any.
    public var detail: String?

    public init(_ flow: LoginFlow, _ reason: Reason, detail: String? = nil) {
        self.flow = flow
        self.reason = reason
        self.detail = detail
    }

    /// Chosen automatically for a browser: if the launcher fails, switch to the device flow
    /// rather than wait for someone to open the URL by hand. A browser flow that was asked for
    /// keeps waiting, as it always did.
    public var fallsBackToDevice: Bool {
        flow == .browser && [.display, .browserVariable, .sshWithForwardedDisplay].contains(reason)
    }

    /// The device flow because nothing here can show a browser: the user needs another device,
    /// and a QR code is the quickest way to hand it the link.
    public var noBrowserHere: Bool {
        flow == .device && [.browserIsNone, .continuousIntegration, .sshWithoutDisplay, .noDisplay, .browserFailed].contains(reason)
    }

    /// `--qr` always; otherwise only on a terminal, and only when no browser is available
    /// (a QR code in a log file helps nobody).
    public func showsQRCode(requested: Bool, stderrIsTTY: Bool) -> Bool {
        flow == .device && (requested || (noBrowserHere && stderrIsTTY))
    }

    /// One line for stderr, without the newline.
    public var explanation: String {
        let name = "the \(flow.rawValue) flow"
        switch reason {
        case .flag: return "Using \(name), as asked on the command line."
        case .environment: return "Using \(name), as KCAUTH_FLOW asks."
        case .profile: return "Using \(name), as the profile remembers (flow = \(flow.rawValue); `--flow auto` lets kcauth choose)."
        case .qrRequested: return "Using \(name): a QR code was asked for (--qr)."
        case .noBrowserFlag: return "Using \(name) without starting a browser (--no-browser)."
        case .browserIsNone: return "Using \(name): $BROWSER is 'none'."
        case .continuousIntegration: return "Using \(name): running in CI (\(detail ?? "CI=true"))."
        case .sshWithoutDisplay: return "Using \(name): this is an SSH session without a forwarded display."
        case .noDisplay: return "Using \(name): no graphical display (DISPLAY and WAYLAND_DISPLAY are unset) and no $BROWSER."
        case .display: return "Using \(name): a graphical display is available (\(detail ?? "DISPLAY"))."
        case .browserVariable: return "Using \(name): $BROWSER is set."
        case .sshWithForwardedDisplay: return "Using \(name): the SSH session forwards a display (\(detail ?? "DISPLAY"))."
        case .browserFailed: return "Switching to \(name): no browser could be started."
        }
    }
}

/// Chooses the login flow: a pure function of the settings and the environment.
///
/// Precedence: `--browser`/`--device`/`--flow` > `--qr` (which needs the device flow) >
/// `KCAUTH_FLOW` > the profile's `flow` > `--no-browser` (the browser flow without a launcher,
/// e.g. over `ssh -L`) > the automatic choice. `auto` at one level skips the levels below it.
public enum FlowSelector {
    public static func choose(flag: FlowSetting?, environmentSetting: FlowSetting?, profile: LoginFlow?,
                              qrRequested: Bool, noBrowser: Bool, environment: [String: String]) -> FlowChoice {
        if let forced = flag?.flow { return FlowChoice(forced, .flag) }
        if qrRequested { return FlowChoice(.device, .qrRequested) }
        if flag == nil {
            if let forced = environmentSetting?.flow { return FlowChoice(forced, .environment) }
            if environmentSetting == nil, let profile { return FlowChoice(profile, .profile) }
        }
        if noBrowser { return FlowChoice(.browser, .noBrowserFlag) }
        return automatic(environment)
    }

    /// Prefer the browser; choose the device flow when there is no way to show one.
    public static func automatic(_ environment: [String: String]) -> FlowChoice {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }
        }
        let display = value("WAYLAND_DISPLAY").map { "WAYLAND_DISPLAY=\($0)" } ?? value("DISPLAY").map { "DISPLAY=\($0)" }
        if value("BROWSER")?.trimmingWhitespace().lowercased() == "none" {
            return FlowChoice(.device, .browserIsNone)
        }
        // Most CI services set CI=true; a job has nobody at a browser, but someone may read its log.
        if let ci = value("CI"), ["true", "1", "yes"].contains(ci.lowercased()) {
            return FlowChoice(.device, .continuousIntegration, detail: "CI=\(ci)")
        }
        // Over SSH a browser on this host is useless unless the display is forwarded, even when
        // $BROWSER is set (a login shell's BROWSER=firefox would start and fail far away).
        if value("SSH_CONNECTION") != nil || value("SSH_TTY") != nil {
            return display.map { FlowChoice(.browser, .sshWithForwardedDisplay, detail: $0) }
                ?? FlowChoice(.device, .sshWithoutDisplay)
        }
        if let display { return FlowChoice(.browser, .display, detail: display) }
        if value("BROWSER") != nil { return FlowChoice(.browser, .browserVariable) }
        return FlowChoice(.device, .noDisplay)
    }
}
