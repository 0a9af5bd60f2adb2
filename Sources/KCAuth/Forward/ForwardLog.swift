import KCAuthCore

/// The lines of `$XDG_STATE_HOME/kcauth/forward.log` on the laptop: one per answer a forward gave
/// (time, destination, profile, scope, what was handed out or why not). Never a token: the line
/// is built from names only.
public enum ForwardLog {
    public static func line(destination: String, profile: String, scope: String?, outcome: String, now: Instant) -> String {
        "\(now.rfc3339) destination=\(field(destination)) profile=\(field(profile)) scope=\(field(scope ?? "-")) \(outcome)\n"
    }

    /// One word: a destination or scope with spaces or control characters stays on its line.
    public static func field(_ s: String) -> String {
        let cleaned = Sanitize.oneLine(s, limit: 200)
        return cleaned.contains(" ") ? "\"" + cleaned + "\"" : cleaned
    }
}
