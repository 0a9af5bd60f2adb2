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
