import KCAuthContract
import KCAuthCore

/// Where a setting came from (`SettingOrigin`), in the words doctor, status and whoami use: an
/// option by its flag from the settings catalogue, a variable or file key by its name, a
/// directory's profile file by its path.
enum SettingOriginWords {
    static func name(_ origin: SettingOrigin) -> String {
        switch origin {
        case .option(let key): return flag(key)
        case .serverAndRealm: return "--server/--realm"
        case .environment(let name): return name
        case .file(let key): return key
        case .directory(let path): return path
        case .answer: return "your answer"
        }
    }

    /// The flag of a setting's option: the catalogue's, else the key spelled as an option.
    static func flag(_ key: String) -> String {
        SettingsCatalogue.row(key: key)?.flag ?? "--" + String(key.map { $0 == "_" ? "-" : $0 })
    }
}
