import KCAuthCore

/// `login`'s choice of flow (RFC 8252 browser or RFC 8628 device): `--browser`, `--device`,
/// `--flow` and `--qr`. The `Login` use case turns them, with the resolved `flow` setting
/// (`KCAUTH_FLOW`, the profile's `flow`), into a `FlowChoice` (`FlowSelector`).
struct LoginFlowOptions {
    static let browser = OptionSpec("browser", help: "Use the browser flow (remembered for the profile)")
    static let device = OptionSpec("device", help: "Use the device flow: sign in on another device (remembered for the profile)")
    static let qr = OptionSpec("qr", help: "Show the device flow's link as a QR code (implies --device)")
    static let noBrowser = OptionSpec("no-browser", help: "Print the sign-in URL instead of opening a browser")
    static let options = [browser, device, SettingsOptions.flow, qr]

    /// What the command line asked for, if anything (`--browser`, `--device` or `--flow`).
    let flag: FlowSetting?
    let qrRequested: Bool

    init(_ c: ParsedCommand) throws {
        var asked: [FlowSetting] = []
        if c.flag(Self.browser) { asked.append(.browser) }
        if c.flag(Self.device) { asked.append(.device) }
        if let raw = c.value(SettingsOptions.flow) {
            guard let setting = FlowSetting(rawValue: raw) else {
                throw KCAuthError(.usage, "--\(SettingsOptions.flow.long) takes \(ChoiceWords.or(ChoiceWords.words(FlowSetting.self))), not '\(raw)'")
            }
            asked.append(setting)
        }
        guard Set(asked).count <= 1 else {
            throw KCAuthError(.usage, "--browser, --device and --flow ask for different flows", hint: "give one of them")
        }
        flag = asked.first
        qrRequested = c.flag(Self.qr)
        if qrRequested, flag == .browser {
            throw KCAuthError(.usage, "--qr shows the device flow's link, and the browser flow was asked for", hint: "use --device --qr")
        }
    }
}
