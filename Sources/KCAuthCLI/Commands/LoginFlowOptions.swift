import KCAuthCore

/// `login`'s choice of flow (issue 4): `--browser`, `--device`, `--flow`, `--qr`,
/// `$KCAUTH_FLOW` and the profile's `flow`, turned into a `FlowChoice` by `FlowSelector`.
struct LoginFlowOptions {
    static let options = [
        OptionSpec("browser", help: "Use the browser flow (remembered for the profile)"),
        OptionSpec("device", help: "Use the device flow: sign in on another device (remembered for the profile)"),
        OptionSpec("flow", value: "MODE", help: "How to sign in, remembered for the profile",
                   choices: FlowSetting.allCases.map(\.rawValue), environment: "KCAUTH_FLOW"),
        OptionSpec("qr", help: "Show the device flow's link as a QR code (implies --device)"),
    ]

    /// What the command line asked for, if anything.
    let flag: FlowSetting?
    let qrRequested: Bool
    let choice: FlowChoice

    init(_ c: ParsedCommand, saved: ProfileSettings, environment: [String: String]) throws {
        var asked: [FlowSetting] = []
        if c.flag("browser") { asked.append(.browser) }
        if c.flag("device") { asked.append(.device) }
        if let raw = c.value("flow") {
            guard let setting = FlowSetting(rawValue: raw) else { throw KCAuthError(.usage, "--flow takes auto, browser or device, not '\(raw)'") }
            asked.append(setting)
        }
        guard Set(asked).count <= 1 else {
            throw KCAuthError(.usage, "--browser, --device and --flow ask for different flows", hint: "give one of them")
        }
        flag = asked.first
        qrRequested = c.flag("qr")
        if qrRequested, flag == .browser {
            throw KCAuthError(.usage, "--qr shows the device flow's link, and the browser flow was asked for", hint: "use --device --qr")
        }
        var setting: FlowSetting?
        if let raw = environment["KCAUTH_FLOW"], !raw.isEmpty {
            guard let parsed = FlowSetting(rawValue: raw.lowercased()) else {
                throw KCAuthError(.usage, "KCAUTH_FLOW must be auto, browser or device, not '\(Sanitize.oneLine(raw))'")
            }
            setting = parsed
        }
        choice = FlowSelector.choose(flag: flag, environmentSetting: setting, profile: saved.flow, qrRequested: qrRequested,
                                     noBrowser: c.flag("no-browser"), environment: environment)
    }

    /// The flow to keep in the profile: a flag replaces the saved one (`--flow auto` clears it);
    /// the environment and `--qr` are one-off.
    func remembered(_ saved: ProfileSettings) -> LoginFlow? {
        guard let flag else { return saved.flow }
        return flag.flow
    }
}
