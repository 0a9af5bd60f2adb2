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
            OptionSpec("all", help: "Sign out of every profile in the configuration file"),
            OptionSpec("local", help: "Only delete the stored session; the provider is not contacted"),
            OptionSpec("forget", help: "Also delete the profile's settings"),
            OptionSpec("browser", help: "Also sign out in the browser (RP-initiated logout)"),
            OptionSpec("timeout", value: "SECONDS", help: "How long to wait for the browser", default: "300"),
        ],
        examples: ["kcauth logout", "kcauth logout --all", "kcauth logout --profile work --forget", "kcauth logout --browser"])

    static func run(_ command: ParsedCommand, _ services: Services) throws {
        let all = command.flag("all"), local = command.flag("local"), browser = command.flag("browser")
        if all, command.value("profile") != nil { throw KCAuthError(.usage, "give either --profile or --all, not both") }
        if local, browser { throw KCAuthError(.usage, "--browser signs out at the provider, --local does not: choose one") }
        if all, browser { throw KCAuthError(.usage, "--browser works on one profile at a time; leave out --all") }
        var timeout = 300.0
        if let raw = command.value("timeout") {
            guard let t = Double(raw), t > 0, t <= 86400 else { throw KCAuthError(.usage, "--timeout takes a number of seconds from 1 to 86400, not '\(raw)'") }
            timeout = t
        }

        let settings = services.settings
        let config = try settings.load()  // a malformed file stops here, before anything is deleted
        let profiles = all ? config.profileNames : [try services.profile(command)]
        if profiles.isEmpty { services.console.err("No profiles in \(settings.path); nothing to sign out.\n") }

        var failures: [(String, KCAuthError)] = []
        for profile in profiles {
            do {
                let port = try ProfileSettings(config, profile: profile, path: settings.path).port ?? 0
                let options = Logout.Options(serverSide: !local, browser: browser ? .init(port: port, timeout: timeout) : nil)
                let outcome = try logout(profile, options, services)
                LogoutOutput.report(outcome, local: local, console: services.console)
                if command.flag("forget") { try forget(profile, services) }
                if let failure = outcome.failure { failures.append((profile, failure)) }
            } catch let error as KCAuthError where all {
                failures.append((profile, error))  // the other profiles are still signed out
            }
        }
        guard let first = failures.first?.1 else { return }
        if failures.count == 1 { throw first }
        for (profile, error) in failures { services.console.err("Profile '\(profile)': \(error.message)\n") }
        throw KCAuthError(first.code, "\(failures.count) of \(profiles.count) profiles were not signed out cleanly", hint: first.hint)
    }

    static func logout(_ profile: String, _ options: Logout.Options, _ services: Services) throws -> Logout.Outcome {
        // Whatever happens, no runtime copy of the access token may outlive the logout.
        defer { services.context.invalidateCachedToken(profile: profile) }
        let caFile = options.serverSide ? try services.context.caFile(for: profile) : nil
        let console = services.console
        return try Logout(store: try services.context.store(for: profile), lock: services.lock, http: { [services] in services.context.http(caFile: caFile) },
                          random: services.random, opener: services.opener, receiver: services.logoutReceiver)
            .run(profile: profile, options: options) { event in
                switch event {
                case .openingBrowser:
                    console.err("Opening the browser to sign out at the provider…\n")
                case .browserFailed(let error, let url):
                    console.err("Could not start a browser (\(error.message)). To sign out there, open this URL in a browser on this machine (it contains your ID token):\n  \(url)\n")
                case .waiting(let redirectURI, let timeout):
                    console.err("Waiting for the provider to return to \(redirectURI) (up to \(Int(timeout)) s)…\n")
                }
            }
    }

    /// `--forget`: the profile's section goes, and `default_profile` too if it names the profile
    /// (a default that points nowhere would only confuse the next command).
    static func forget(_ profile: String, _ services: Services) throws {
        let settings = services.settings
        var config = try settings.load()
        let removed = config.removeProfile(profile)
        let wasDefault = (try? config.defaultProfile(path: settings.path)) == profile
        if wasDefault { config.set(ConfigDocument.defaultProfileKey, nil, profile: nil) }
        guard removed || wasDefault else { return }
        try settings.save(config)
        services.console.err("Forgot the settings of profile '\(profile)'" + (wasDefault ? "; the default profile is 'default' again" : "") + ".\n")
    }
}
