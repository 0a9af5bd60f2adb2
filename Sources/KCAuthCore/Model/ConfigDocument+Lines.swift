import KCAuthContract

/// Where each setting is in the file, so that a message names the line a person must fix. Line
/// N of the file is `lines[N - 1]`: the parser keeps one line of the document per line of the
/// text (comments and blank lines too) and drops blank lines only at the end; after an edit the
/// numbers are those of the text that would be written.
extension ConfigDocument {
    /// One `key = value` line and its line number (1-based).
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
        public var line: Int
    }

    /// The `key = value` lines of a profile's section (`profile` nil: the global part), in file
    /// order, a repeated key each time.
    public func numberedEntries(profile: String?) -> [Entry] {
        var inside = profile == nil
        var result: [Entry] = []
        for (index, line) in lines.enumerated() {
            switch line {
            case .section(let name): inside = name == profile
            case .entry(let key, let value) where inside: result.append(Entry(key: key, value: value, line: index + 1))
            default: break
            }
        }
        return result
    }

    /// The line of the key `value(_:profile:)` reads (its first occurrence); nil when absent.
    public func line(of key: String, profile: String?) -> Int? {
        numberedEntries(profile: profile).first { $0.key == key }?.line
    }

    /// How a message names a setting of a profile: `PATH:LINE: profile [NAME]`, the line of
    /// `key` when it is in the section, else `PATH: profile [NAME]`.
    public func place(_ path: String, profile: String, key: String?) -> String {
        guard let key, let line = line(of: key, profile: profile) else { return "\(path): profile [\(profile)]" }
        return "\(path):\(line): profile [\(profile)]"
    }

    /// Every key kcauth does not read where it stands: in a profile's section, one that is not a
    /// key of the settings catalogue; before the first section, one that is not a global key. Such a
    /// key is never used (a typo such as `clientid`, or a key of a newer kcauth), so it is warned
    /// about, never obeyed.
    public func unknownKeys() -> [UnknownConfigKey] {
        var profile: String?
        var result: [UnknownConfigKey] = []
        for (index, line) in lines.enumerated() {
            switch line {
            case .section(let name):
                profile = name
            case .entry(let key, _):
                let known = profile == nil ? SettingsCatalogue.globalKeys.contains(key) : SettingsCatalogue.row(key: key) != nil
                if !known { result.append(UnknownConfigKey(key: key, line: index + 1, profile: profile)) }
            case .other:
                break
            }
        }
        return result
    }
}
