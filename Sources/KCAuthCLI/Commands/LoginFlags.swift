import KCAuth
import KCAuthCore

/// `login`'s settings flags, with issue 11's: the client-credentials grant (item 9; the `Login`
/// use case hands such a login to `ClientLogin`), the request parameters and the session options.
enum LoginFlags {
    /// The settings flags of `login`, with the issue 11 ones.
    static func flags(_ command: ParsedCommand, flow: FlowSetting?) throws -> SettingsFlags {
        var flags = SettingsOptions.flags(command, flow: flow)
        try LoginClientOptions.apply(command, to: &flags.login)
        if flags.login.clientCredentials, flow != nil || command.flag(LoginFlowOptions.qr) {
            throw KCAuthError(.usage, "--client-credentials signs in without a person: the browser and device flows do not apply",
                              hint: "drop --browser, --device, --flow and --qr")
        }
        LoginRequestOptions.apply(command, to: &flags.login)
        try LoginSessionOptions.apply(command, to: &flags.login)
        return flags
    }
}
