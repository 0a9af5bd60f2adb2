import KCAuth
import KCAuthContract
import KCAuthCore

/// The remote side of `kcauth ssh`: when the connection announced a forwarded socket
/// (``ForwardRule``) that is a live one of the user's here, tokens come from the laptop over
/// it, and nothing is read from or written to this host's configuration, keyring, files or cache
/// (``ForwardedToken``); `status` and `whoami` describe the forward. With no forward, or one that
/// is not this host's (ignored with one line), kcauth works as always.
enum ForwardedSession {
    /// Commands that would sign in, end, refresh or pick a session of this host, or store one:
    /// refused while a forward is in force, which has nothing here to act on and must store
    /// nothing here. The session lives on the laptop.
    static let refusedCommands: Set<String> = ["login", "logout", "refresh", "use", "setup-client"]

    static func check(_ command: String, _ services: Services) throws {
        guard refusedCommands.contains(command), announced(services) else { return }
        throw KCAuthError(.usage, "`kcauth \(command)` does not run in a session forwarded by `kcauth ssh`: the session is the laptop's",
                          hint: "run it on the laptop, or unset \(ForwardRule.variable) to use this host's own sessions")
    }

    static func announced(_ services: Services) -> Bool {
        services.context.forwardedToken().announced
    }

    /// A token from the laptop, when a forward is in force; nil otherwise.
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

    /// `status` in a forwarded session: the forward, as the laptop describes it; false when no
    /// forward is in force. Exit status 2 when the selected profile is not lent.
    static func status(_ command: ParsedCommand, _ services: Services) throws -> Bool {
        let forwarded = services.context.forwardedToken()
        guard forwarded.announced else { return false }
        let forward = try forwarded.describe()
        let socket = forwarded.socket ?? ""
        let selected = named(command, services) ?? forward.profiles[0]
        switch SessionOutput(command) {
        case .text: services.console.out(ForwardedOutput.statusText(forward, socket: socket, selected: selected))
        case .json: services.console.out(ForwardedOutput.statusJSON(forward, socket: socket, selected: selected))
        }
        guard forward.profiles.contains(selected) else { throw ReportedFailure(status: .usage) }
        return true
    }

    /// `whoami` in a forwarded session: the forward and the identity in the token it lends;
    /// false when no forward is in force.
    static func whoami(_ command: ParsedCommand, _ services: Services, userinfo: Bool) throws -> Bool {
        let forwarded = services.context.forwardedToken()
        guard forwarded.announced else { return false }
        if userinfo {
            throw KCAuthError(.usage, "--userinfo needs the session, which is the laptop's", hint: "run `kcauth whoami --userinfo` on the laptop")
        }
        let identity = try forwarded.identity(profile: named(command, services))
        let socket = forwarded.socket ?? ""
        let now = services.context.clock.instant
        switch SessionOutput(command) {
        case .text: services.console.out(ForwardedOutput.whoamiText(identity, socket: socket, now: now))
        case .json: services.console.out(ForwardedOutput.whoamiJSON(identity, socket: socket, now: now))
        }
        return true
    }
}
