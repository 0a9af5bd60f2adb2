import KCAuthContract
import KCAuthCore

/// The configuration file's keys that kcauth does not read (``UnknownConfigKey``), in words: the
/// file and line, and the key that was probably meant (`Suggest`), so a typo such as `clientid`
/// costs one look rather than a wrong diagnosis.
enum ConfigWords {
    /// `PATH:3: profile [work]: unknown key 'clientid' (did you mean 'client_id'?), ignored`
    static func unknownKey(_ unknown: UnknownConfigKey, path: String) -> String {
        "\(path):\(unknown.line): " + (unknown.profile.map { "profile [\($0)]: " } ?? "") + what(unknown)
    }

    /// The warning on use: one line, the first key and how many more (`doctor` lists them all).
    static func warning(path: String, _ keys: [UnknownConfigKey]) -> String {
        guard let first = keys.first else { return "" }
        let more = keys.count > 1 ? " (and \(keys.count - 1) more: `kcauth doctor` lists them)" : ""
        return "warning: " + unknownKey(first, path: path) + more + "\n"
    }

    /// `doctor`'s detail: every key, by line.
    static func list(path: String, _ keys: [UnknownConfigKey]) -> String {
        "\(path): " + keys.map { "line \($0.line)" + ($0.profile.map { " [\($0)]" } ?? "") + ": " + what($0) }.joined(separator: "; ")
    }

    private static func what(_ unknown: UnknownConfigKey) -> String {
        let key = Sanitize.oneLine(unknown.key, limit: 60)
        if unknown.belongsElsewhere {
            return unknown.profile == nil
                ? "'\(key)' is a profile's key, ignored before the first section: move it under a [profile] line"
                : "'\(key)' is ignored inside a profile: it belongs before the first section"
        }
        let guess = Suggest.closest(to: unknown.key, in: unknown.knownHere).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown key '\(key)'\(guess), ignored"
    }
}
