import KCAuthCore

/// `kcauth profiles`: the configuration file's profiles, without network or keyring (the list
/// feeds shell completion, so it must be instant).
public struct Profiles: Sendable {
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

    public struct Report: Sendable, Equatable {
        /// The configuration file.
        public var path: String
        /// `default_profile`, else `default`.
        public var defaultProfile: String
        /// The profile this command would use.
        public var selectedProfile: String
        public var entries: [Entry]
    }

    let context: KCAuthContext

    /// The profile names in file order, and nothing else (for completion).
    public func names() throws -> [String] { try context.config().profileNames }

    /// `selected`: the profile flag (nil: `$KCAUTH_PROFILE`, the directory's, the default).
    public func run(selected: String?) throws -> Report {
        let config = try context.config()
        let path = context.settings.path
        let selected = try context.resolver().profile(selected).value
        let entries = try Self.list(config, path: path, selected: selected)
        return Report(path: path, defaultProfile: try config.defaultProfile(path: path) ?? ProfileName.defaultName,
                      selectedProfile: selected, entries: entries)
    }

    /// Every profile of the file in file order, and only those: a selected profile the file
    /// lacks (the implicit `default` of a fresh file) is no entry, and no entry is then selected.
    public static func list(_ doc: ConfigDocument, path: String, selected: String) throws -> [Entry] {
        let defaultName = try doc.defaultProfile(path: path) ?? ProfileName.defaultName
        return doc.profileNames.map { name in
            Entry(name: name, isDefault: name == defaultName, selected: name == selected,
                  settings: doc.entries(profile: name).map { Setting(key: $0.key, value: $0.value) })
        }
    }
}
