/// How `--debug` and `KCAUTH_DEBUG` trace: one readable line per event, or one JSON object per
/// line for tools. The words are the setting's (``SettingsCatalogue/debug``).
public enum TraceMode: String, Sendable, Equatable, CaseIterable {
    case text
    case json

    /// What `KCAUTH_DEBUG` means: `1` (or `text`) and `json` trace; unset, empty, `0` or `off`
    /// (``SettingCheck/offWords``) do not. Any other value is refused, like any setting's.
    public enum Setting: Sendable, Equatable {
        case off
        case on(TraceMode)
        case refused
    }

    /// `KCAUTH_DEBUG`'s value (nil: unset). Byte tests only: the front reads it on every run.
    public static func setting(environment value: String?) -> Setting {
        guard let value, !value.isEmpty else { return .off }
        if value == "1" { return .on(.text) }
        let lowered = SettingCheck.asciiLowercased(value)
        if let mode = TraceMode(rawValue: lowered) { return .on(mode) }
        if ASCIIText.index(of: lowered, in: SettingCheck.offWords) != nil { return .off }
        return .refused
    }

    /// `--debug` (nil) or `--debug=VALUE`: only the modes' words.
    public static func setting(flag value: String?) -> Setting {
        guard let value else { return .on(.text) }
        return TraceMode(rawValue: value).map(Setting.on) ?? .refused
    }
}
