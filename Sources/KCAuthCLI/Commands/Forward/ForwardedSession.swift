import KCAuth
import KCAuthContract
import KCAuthCore

/// The remote side of `kcauth ssh`: when the connection announced a forwarded socket
/// (``ForwardRule``), tokens come from the laptop over it, and nothing is read from or written to
/// this host's configuration, keyring, files or cache (``ForwardedToken``). With no forward, nil:
/// kcauth works as always.
enum ForwardedSession {
    /// Commands that would sign in, end, refresh or pick a session of this host, or store one:
    /// refused while a forward is announced, which has nothing here to act on and must store
    /// nothing here. The session lives on the laptop.
    static let refusedCommands: Set<String> = ["login", "logout", "refresh", "whoami", "use", "setup-client"]

    static func check(_ command: String, _ services: Services) throws {
        guard announced(services), refusedCommands.contains(command) else { return }
        throw KCAuthError(.usage, "`kcauth \(command)` does not run in a session forwarded by `kcauth ssh`: the session is the laptop's",
                          hint: "run it on the laptop, or unset \(ForwardRule.variable) to use this host's own sessions")
    }

    static func announced(_ services: Services) -> Bool {
        services.context.forwardedToken().announced
    }

    /// A token from the laptop, when a forward is announced; nil otherwise.
    static func token(_ command: ParsedCommand, _ services: Services, minValid: Double, idToken: Bool) throws -> (profile: String, token: IssuedToken)? {
        guard announced(services) else { return nil }
        return try token(services, profile: named(command, services), minValid: minValid, idToken: idToken)
    }

    /// The profile asked of the laptop: the option, else `KCAUTH_PROFILE`; nil: the forward's first.
    static func named(_ command: ParsedCommand, _ services: Services) -> String? {
        command.value(CommandTable.profile) ?? services.environment["KCAUTH_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func token(_ services: Services, profile: String?, minValid: Double, idToken: Bool) throws -> (profile: String, token: IssuedToken) {
        try services.context.forwardedToken().token(profile: profile, minValid: minValid, idToken: idToken)
    }
}
