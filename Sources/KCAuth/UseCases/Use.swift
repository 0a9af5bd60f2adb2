import KCAuthCore

/// `kcauth use NAME`: `default_profile = NAME` in the global part of the configuration file.
public struct Use: Sendable {
    let context: KCAuthContext

    public func run(_ name: String) throws {
        try InputText.check(name, from: "the profile name")
        let settings = context.settings
        var config = try settings.load()
        try Self.setDefault(name, in: &config, path: settings.path)
        try settings.save(config)
    }

    /// The profile must exist, so a typo cannot silently point every later command at an empty
    /// profile; `default` always exists.
    static func setDefault(_ name: String, in doc: inout ConfigDocument, path: String) throws {
        guard ProfileName.isValid(name) else {
            throw KCAuthError(.usage, "'\(Sanitize.oneLine(name))' is not a valid profile name", hint: "use letters, digits, '.', '_' and '-'")
        }
        guard name == ProfileName.defaultName || doc.profileNames.contains(name) else {
            throw KCAuthError(.usage, "there is no profile '\(name)' in \(path)", remedy: .noSuchProfile(name))
        }
        doc.set(ConfigDocument.defaultProfileKey, name, profile: nil)
    }
}
