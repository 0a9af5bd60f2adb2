/// Where a resolved setting came from, so `doctor` and `status` can say it.
/// Precedence, highest first: flag, environment, profile, default.
public enum SettingSource: String, Sendable, Equatable, CaseIterable {
    case flag
    case environment
    case profile
    case `default`
}
