/// "in 4m 59s", "3h 2m ago": a short distance in time for people, next to an RFC 3339 time.
public enum RelativeTime {
    public static func describe(_ seconds: Double) -> String {
        // Instants are bounded, so this is too; the clamp keeps a bad caller from trapping.
        let total = seconds.isFinite ? Int(min(abs(seconds), 1e15).rounded(.down)) : 0
        let text: String
        switch total {
        case ..<60: text = "\(total)s"
        case ..<3600: text = "\(total / 60)m \(total % 60)s"
        case ..<86400: text = "\(total / 3600)h \(total % 3600 / 60)m"
        default: text = "\(total / 86400)d \(total % 86400 / 3600)h"
        }
        return seconds >= 0 ? "in \(text)" : "\(text) ago"
    }

    /// `2025-11-21T14:03:09Z (in 4m 59s)`
    public static func stamp(_ instant: Instant, now: Instant) -> String {
        "\(instant) (\(describe(instant.seconds(since: now))))"
    }
}
