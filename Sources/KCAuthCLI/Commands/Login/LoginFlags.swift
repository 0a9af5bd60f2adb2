import KCAuth
import KCAuthCore

/// `login`'s settings flags, with those only `login` takes: the client-credentials grant (the
/// `Login` use case hands such a login to `ClientLogin`), the request parameters and the session
/// options.
enum LoginFlags {
    /// The settings flags of `login`: the common ones, then the client's and the request's.
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
