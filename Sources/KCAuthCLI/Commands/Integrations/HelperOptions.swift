import KCAuth
import KCAuthContract
import KCAuthCore

/// What the git and docker credential helpers share on the command line: the profile option,
/// and the words of a helper's row (``CredentialHelper``): its usage, its actions.
enum HelperOptions {
    /// Not `CommandTable.profile`: no default; the variable is read by ``HelperProfiles``.
    static let profile: OptionSpec = {
        var option = OptionSpec(SettingsCatalogue.profile, help: "Answer only with this profile, and only for the hosts it lists")
        option.defaultValue = nil
        return option
    }()

    /// `{get|store|erase} [flags]`: what follows the command (or the program name) in a usage line.
    static func usage(_ helper: CredentialHelper) -> String {
        "{" + helper.actionWords.joined(separator: "|") + "} [flags]"
    }

    /// `get, store or erase`.
    static func actionList(_ helper: CredentialHelper) -> String {
        let words = helper.actionWords
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// The action the command line names, as the helper's protocol has it; nil for a word
    /// the protocol does not have (an error, unless the helper ignores such actions).
    static func action(_ command: ParsedCommand, _ helper: CredentialHelper) throws -> CredentialHelper.Action? {
        guard let word = command.positionals.first else {
            throw KCAuthError(.usage, "\(helper.command) needs an action: \(actionList(helper))")
        }
        if let action = helper.action(word) { return action }
        guard helper.ignoresUnknownActions else {
            throw KCAuthError(.usage, "unknown \(helper.tool) credential action '\(Sanitize.oneLine(word, limit: 40))'",
                              hint: "use \(actionList(helper))")
        }
        return nil
    }
}
