import KCAuthContract
import KCAuthCore

/// Where the selected profile came from, in the words status, whoami and doctor use
/// (`DirectoryProfile`): a `.kcauth-profile` picks a profile silently, so these say which file did.
/// nil for `--profile` (the person just typed it) and for the built-in `default`.
enum ProfileOrigin {
    static func words(_ setting: Setting<String>) -> String? {
        switch setting.source {
        case .flag, .default: return nil
        case .environment: return setting.origin.map(SettingOriginWords.name) ?? SettingsCatalogue.profile.environment
        case .directory: return setting.origin.map(SettingOriginWords.name)
        case .profile: return setting.origin.map(SettingOriginWords.name) ?? SettingsCatalogue.defaultProfile.key
        }
    }
}
