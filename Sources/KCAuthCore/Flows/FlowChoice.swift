/// Which flow a login uses, and why, in words for the one line kcauth prints about it.
public struct FlowChoice: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        // Asked for.
        case flag, environment, profile, qrRequested, noBrowserFlag
        // Chosen: no way to show a browser here.
        case browserIsNone, continuousIntegration, sshWithoutDisplay, noDisplay
        // Chosen: a browser can be shown.
        case display, browserVariable, sshWithForwardedDisplay
        /// The profile names a browser command (`browser_command`), or this is WSL, where the
        /// Windows browser opens without any display variable.
        case browserCommand, wsl
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
        flow == .browser && [.display, .browserVariable, .sshWithForwardedDisplay, .browserCommand, .wsl].contains(reason)
    }

    /// The device flow because nothing here can show a browser: the user needs another device,
    /// and a QR code is the quickest way to hand it the link.
    public var noBrowserHere: Bool {
        flow == .device && [.browserIsNone, .continuousIntegration, .sshWithoutDisplay, .noDisplay, .browserFailed].contains(reason)
    }

    /// Asked for: always; otherwise only on a terminal, and only when no browser is available
    /// (a QR code in a log file helps nobody).
    public func showsQRCode(requested: Bool, stderrIsTTY: Bool) -> Bool {
        flow == .device && (requested || (noBrowserHere && stderrIsTTY))
    }
}
