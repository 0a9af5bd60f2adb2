import KCAuth
import KCAuthCore

/// What the git and docker credential helpers share on the command line: the profile option.
enum HelperOptions {
    /// Not `CommandTable.profile`: no default; the variable is read by ``HelperProfiles``.
    static let profile = OptionSpec("profile", value: "NAME",
                                    help: "Answer only with this profile, and only for the hosts it lists",
                                    environment: "KCAUTH_PROFILE", completes: .profiles)

}
