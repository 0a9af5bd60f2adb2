import KCAuthCore

/// The CLI's words for why a login uses the flow it uses.
extension FlowChoice {
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
        case .browserCommand: return "Using \(name): the profile names a browser command (--browser-command)."
        case .wsl: return "Using \(name): this is WSL (\(detail ?? "a Microsoft kernel")), so the Windows browser opens."
        case .browserFailed: return "Switching to \(name): no browser could be started."
        }
    }
}
