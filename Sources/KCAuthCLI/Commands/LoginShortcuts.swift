import KCAuth
import KCAuthCore

/// The two ways `kcauth login` ends without a person signing in (issue 11): the profile is
/// already signed in with these settings (item 6), or the client signs in as itself with the
/// client-credentials grant (item 9).
enum LoginShortcuts {
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

    /// True when the profile is already signed in (said on stderr, the token on stdout with `-o`).
    /// `force`: look even with `--force` (after waiting for another process's sign-in).
    static func alreadySignedIn(_ command: ParsedCommand, _ profile: ResolvedProfile, oneOff: AuthorizationParameters,
                                rememberedFlow: LoginFlow?, _ services: Services, evenWithForce: Bool = false) throws -> Bool {
        guard evenWithForce || !command.flag(LoginRequestOptions.force),
              let found = services.context.currentSession(profile).find(oneOff: oneOff, rememberedFlow: rememberedFlow) else { return false }
        let now = services.context.clock.instant
        let until = found.until.map { " until " + RelativeTime.stamp($0, now: now) } ?? ""
        services.console.err("Already logged in to \(found.state.issuer) as \(Sanitize.oneLine(found.user)) (profile '\(profile.name)')\(until); "
                             + "use --force to sign in again.\n")
        if let format = command.value(LoginStorage.output) {
            let token = try services.context.getToken(profile).run(GetToken.Request(profile: profile.name))
            services.console.out(format == "raw" ? token.accessToken + "\n"
                                 : TokenOutput.json.render(token, idToken: false, profile: profile.name, now: now))
        }
        return true
    }

    /// `--client-credentials`, or a profile that remembers it.
    static func clientCredentials(_ command: ParsedCommand, _ profile: ResolvedProfile, _ services: Services) throws {
        let console = services.console
        let output = try services.context.clientSignIn(profile).run { event in
            LoginStorage.report(event, profile: profile.name, console: console)
        }
        let who = IdentityClaims(unverifiedToken: output.state.accessToken)?.displayName ?? output.state.clientID
        console.err("Logged in to \(output.state.issuer) as \(Sanitize.oneLine(who)) with the client's credentials, "
                    + "\(output.authentication) (profile '\(profile.name)').\n")
        let now = services.context.clock.instant
        switch command.value(LoginStorage.output) {
        case "raw"?:
            console.out(output.state.accessToken + "\n")
        case "json"?:
            console.out(TokenOutput.json.render(IssuedToken(output.state), idToken: false, profile: profile.name, now: now))
        default:
            if output.storage == .memory {
                console.err("Nothing was kept (--storage memory): add -o raw or -o json to print the access token.\n")
            }
        }
    }
}
