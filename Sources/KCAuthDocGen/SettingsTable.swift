import KCAuthContract

/// The settings catalogue (KCAuthContract's `SettingsCatalogue`) as documentation: the table in
/// docs/configuration.md (kept equal by `SettingsTableTests`) and the man page's CONFIGURATION
/// section. One row per setting, so a new setting is documented where it is declared.
public enum SettingsTable {
    /// The Markdown table docs/configuration.md carries, byte for byte.
    public static func markdown() -> String {
        var lines = ["| key | flag | variable | remembered | binds the cache | what |", "|---|---|---|---|---|---|"]
        for row in [SettingsCatalogue.defaultProfile] + SettingsCatalogue.profileRows {
            lines.append("| `\(row.key!)` | \(code(row.flag)) | \(code(row.environment)) | \(row.remembered ? "yes" : "no") | "
                         + "\(row.bindsCache ? "yes" : "no") | \(row.summary) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The man page's CONFIGURATION items: one per key, with where else it can be given.
    static func manItems() -> [ManBlock] {
        ([SettingsCatalogue.defaultProfile] + SettingsCatalogue.profileRows).map { row in
            var text = ManPage.capitalized(row.summary) + "."
            let also = [row.flag.map { "`\($0)`" }, row.environment.map { "`\($0)`" }].compactMap { $0 }
            if !also.isEmpty { text += " Also " + also.joined(separator: ", ") + "." }
            return .item("`\(row.key!)`", text)
        }
    }

    private static func code(_ s: String?) -> String { s.map { "`\($0)`" } ?? "" }
}
