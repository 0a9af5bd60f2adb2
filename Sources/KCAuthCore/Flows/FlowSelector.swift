

/// Chooses the login flow: a pure function of the settings and the environment.
///
/// Precedence: the flow asked for on the command line > a QR code asked for (which needs the
/// device flow) > `KCAUTH_FLOW` > the profile's `flow` > no browser asked for (the browser flow
/// without a launcher, e.g. over `ssh -L`) > the automatic choice. `auto` at one level skips the levels below it.
public enum FlowSelector {
    public static func choose(flag: FlowSetting?, environmentSetting: FlowSetting?, profile: LoginFlow?,
                              qrRequested: Bool, noBrowser: Bool, environment: [String: String],
                              browserCommand: Bool = false, wsl: Bool = false) -> FlowChoice {
        if let forced = flag?.flow { return FlowChoice(forced, .flag) }
        if qrRequested { return FlowChoice(.device, .qrRequested) }
        if flag == nil {
            if let forced = environmentSetting?.flow { return FlowChoice(forced, .environment) }
            if environmentSetting == nil, let profile { return FlowChoice(profile, .profile) }
        }
        if noBrowser { return FlowChoice(.browser, .noBrowserFlag) }
        return automatic(environment, browserCommand: browserCommand, wsl: wsl)
    }

    /// An SSH session without a forwarded display: a browser started here would open far from
    /// the person (or not at all), so the browser flow shows the URL and takes the answer pasted
    /// back instead (`PastedRedirect`).
    public static func browserIsRemote(_ environment: [String: String]) -> Bool {
        func set(_ name: String) -> Bool { !(environment[name] ?? "").trimmingWhitespace().isEmpty }
        return (set("SSH_CONNECTION") || set("SSH_TTY")) && !set("DISPLAY") && !set("WAYLAND_DISPLAY")
    }

    /// Prefer the browser; choose the device flow when there is no way to show one.
    public static func automatic(_ environment: [String: String], browserCommand: Bool = false, wsl: Bool = false) -> FlowChoice {
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
        if browserCommand { return FlowChoice(.browser, .browserCommand) }
        // WSL2 forwards the Windows browser's 127.0.0.1 to this machine's listener.
        if wsl { return FlowChoice(.browser, .wsl, detail: environment["WSL_DISTRO_NAME"].map { "WSL_DISTRO_NAME=\($0)" }) }
        return FlowChoice(.device, .noDisplay)
    }
}
