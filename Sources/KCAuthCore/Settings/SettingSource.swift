/// Where a resolved setting came from, so `doctor` and `status` can say it.
/// Precedence, highest first: flag, environment, profile, default; the profile's name itself
/// may also come from the directory (`.kcauth-profile`), between the environment and the file.
public enum SettingSource: String, Sendable, Equatable, CaseIterable {
    case flag
    case environment
    /// The `.kcauth-profile` of the working directory or a parent (the profile name only).
    case directory
    case profile
    case `default`
}
