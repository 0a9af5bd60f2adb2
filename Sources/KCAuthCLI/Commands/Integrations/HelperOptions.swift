import KCAuth
import KCAuthContract
import KCAuthCore

/// What the git and docker credential helpers share on the command line: the profile option.
enum HelperOptions {
    /// Not `CommandTable.profile`: no default; the variable is read by ``HelperProfiles``.
    static let profile: OptionSpec = {
        var option = OptionSpec(SettingsCatalogue.profile, help: "Answer only with this profile, and only for the hosts it lists")
        option.defaultValue = nil
        return option
    }()

}
