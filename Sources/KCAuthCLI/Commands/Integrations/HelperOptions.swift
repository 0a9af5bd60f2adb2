import KCAuth
import KCAuthCore

/// What the git and docker credential helpers share on the command line: the profile option,
/// and the forwarded session of `kcauth ssh` when one is announced.
enum HelperOptions {
    /// Not `CommandTable.profile`: no default; the variable is read by ``HelperProfiles``.
    static let profile = OptionSpec("profile", value: "NAME",
                                    help: "Answer only with this profile, and only for the hosts it lists",
                                    environment: "KCAUTH_PROFILE", completes: .profiles)

    /// The laptop's answers over `kcauth ssh`; nil when no forward is announced.
    static func forwarded(_ services: Services) -> ForwardedHelperToken.Source? {
        guard ForwardedSession.announced(services) else { return nil }
        return { picked, host in
            try ForwardedSession.helperToken(services, picked: picked, host: host).map { ForwardedHelperToken(token: $0.token, username: $0.username) }
        }
    }
}
