import KCAuth
import KCAuthCore

/// `login`'s settings flags, with issue 11's: the client-credentials grant (item 9; the `Login`
/// use case hands such a login to `ClientLogin`), the request parameters and the session options.
enum LoginFlags {
    /// The settings flags of `login`, with the issue 11 ones.
    static func flags(_ command: ParsedCommand, flow: FlowSetting?, workingDirectory: String?) throws -> SettingsFlags {
        var flags = try SettingsOptions.flags(command, flow: flow, workingDirectory: workingDirectory)
        try LoginClientOptions.apply(command, to: &flags.login, workingDirectory: workingDirectory)
        if flags.login.clientCredentials, flow != nil || command.flag(LoginFlowOptions.qr) {
            throw KCAuthError(.usage, "--client-credentials signs in without a person: the browser and device flows do not apply",
                              hint: "drop --browser, --device, --flow and --qr")
        }
        try LoginRequestOptions.apply(command, to: &flags.login)
        try LoginSessionOptions.apply(command, to: &flags.login)
        return flags
    }
}
