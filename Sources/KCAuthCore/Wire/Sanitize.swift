import FoundationEssentials

/// Text from a provider or a peer goes into one-line terminal messages: strip control characters
/// so nothing can move the cursor or fake another line.
public enum Sanitize {
    public static func oneLine(_ s: String, limit: Int = 300) -> String {
        var out = String(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        if out.count > limit { out = String(out.prefix(limit)) + "…" }
        return out
    }
}
