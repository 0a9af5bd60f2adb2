/// `kcauth profiles` and `kcauth use`: the configuration file's profiles, without network or
/// keyring (the list feeds shell completion, so it must be instant).
public enum Profiles {
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// Named by `default_profile` (or, when that is unset, the profile called `default`).
        public var isDefault: Bool
        /// The profile this command would use (`--profile`, `$KCAUTH_PROFILE`, the default).
        public var selected: Bool
        /// The section's `key = value` lines as written (issuer, client_id, scope, port, flow,
        /// storage, ca_file, and any key a newer kcauth wrote).
        public var settings: [Setting]
    }

    public struct Setting: Sendable, Equatable {
        public var key: String
        public var value: String
    }

    /// Every profile of the file in file order, plus the selected one if the file lacks it.
    public static func list(_ doc: ConfigDocument, path: String, selected: String) throws -> [Entry] {
        let defaultName = try doc.defaultProfile(path: path) ?? ProfileName.defaultName
        var names = doc.profileNames
        if !names.contains(selected) { names.insert(selected, at: 0) }
        return names.map { name in
            Entry(name: name, isDefault: name == defaultName, selected: name == selected,
                  settings: doc.entries(profile: name).map { Setting(key: $0.key, value: $0.value) })
        }
    }

    /// `kcauth use NAME`: `default_profile = NAME` in the global part of the file. The profile
    /// must exist, so a typo cannot silently point every later command at an empty profile;
    /// `default` always exists.
    public static func setDefault(_ name: String, in doc: inout ConfigDocument, path: String) throws {
        guard ProfileName.isValid(name) else {
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(name))' is not a valid profile name", hint: "use letters, digits, '.', '_' and '-'")
        }
        guard name == ProfileName.defaultName || doc.profileNames.contains(name) else {
            throw KCAuthError(.usage, "there is no profile '\(name)' in \(path)", remedy: .noSuchProfile(name))
        }
        doc.set(ConfigDocument.defaultProfileKey, name, profile: nil)
    }
}
