import KCAuth
import KCAuthCore

/// `kcauth logout`: end the session at the provider, then delete it here. Every message goes to
/// stderr; the exit status says whether the provider confirmed the end of the session.
enum LogoutCommand: Command {
    static let spec = CommandSpec(
        "logout", summary: "Sign out at the provider and delete the stored session",
        description: """
        Ends the session at the provider (Keycloak's back-channel logout, then token revocation, \
        RFC 7009; a session the provider already ended counts as ended), then deletes the stored \
        tokens. The profile's settings stay unless --forget is given. If the provider cannot be \
        reached, the tokens are deleted anyway, kcauth says that the session at the provider may \
        still be alive, and exits with status 1. --browser also signs you out in the browser \
        (OpenID Connect RP-initiated logout; the provider must accept the post-logout redirect \
        http://127.0.0.1/logged-out on any port).
        """,
        usage: "[--profile NAME | --all] [--local] [--forget] [--browser]",
        options: [
            CommandTable.profile,
            all, local, forget, browser, SettingsOptions.timeout,
        ],
        examples: ["kcauth logout", "kcauth logout --all", "kcauth logout --profile work --forget", "kcauth logout --browser"])

    static let all = OptionSpec("all", help: "Sign out of every profile in the configuration file")
    static let local = OptionSpec("local", help: "Only delete the stored session; the provider is not contacted")
    static let forget = OptionSpec("forget", help: "Also delete the profile's settings")
    static let browser = OptionSpec("browser", help: "Also sign out in the browser (RP-initiated logout)")

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let all = command.flag(Self.all), local = command.flag(Self.local), browser = command.flag(Self.browser)
        let selected = try SettingsOptions.profile(command)
        if all, selected != nil { throw KCAuthError(.usage, "give either --profile or --all, not both") }
        if local, browser { throw KCAuthError(.usage, "--browser signs out at the provider, --local does not: choose one") }
        if all, browser { throw KCAuthError(.usage, "--browser works on one profile at a time; leave out --all") }
        let timeout = try command.value(SettingsOptions.timeout).map {
            try InputText.check($0, from: "--timeout")
            return try OptionValues.seconds($0, option: "--timeout", range: SettingsResolver.timeoutRange)
        } ?? SettingsResolver.defaultTimeout

        let console = services.console
        let options = Logout.Options(all: all, local: local, forget: command.flag(forget), browserTimeout: browser ? timeout : nil)
        let failures = try services.context.logout().run(selected: selected, options) { event in
            LogoutOutput.report(event, local: local, now: services.context.clock.instant, console: console)
        }
        guard let first = failures.first?.error else { return }
        if failures.count == 1 { throw first }
        for failure in failures { console.err("Profile '\(failure.profile)': \(MessageWords.message(failure.error))\n") }
        throw KCAuthError(first.code, "\(failures.count) profiles were not signed out cleanly", hint: LoginHint.hint(for: first))
    }
}
