import KCAuthCore

/// `-o text|json` of `whoami`, `status` and `profiles`. Text is for people and may change;
/// JSON is for scripts: its keys are documented in README and only ever added to. Both go to
/// stdout (they are the command's data); messages go to stderr.
enum SessionOutput: String, CaseIterable {
    case text, json

    static let option = OptionSpec("output", short: "o", value: "FORMAT", help: "Output format", default: "text",
                                   choices: allCases.map(\.rawValue))

    /// The version of every JSON document these commands print; raised only if a key's meaning
    /// ever changes (new keys do not change it).
    static let schemaVersion: Double = 1

    init(_ command: ParsedCommand) {
        self = command.value(Self.option).flatMap(SessionOutput.init(rawValue:)) ?? .text
    }

    /// `label   value` lines with the values in one column.
    static func lines(_ rows: [(String, String)], indent: String = "") -> String {
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        return rows.map { indent + $0.0.padded(to: width) + $0.1 + "\n" }.joined()
    }

    /// "valid until 2025-11-21T14:03:09Z (in 4m 59s)", or how it expired.
    static func expiry(_ instant: Instant?, now: Instant, known: String = "no expiry given by the provider") -> String {
        guard let instant else { return known }
        return (instant > now ? "valid until " : "expired at ") + RelativeTime.stamp(instant, now: now)
    }

    /// An RFC 3339 time and the whole seconds until it (negative once past), for JSON.
    static func times(_ prefix: String, _ instant: Instant?, now: Instant) -> [(String, JSONValue)] {
        [(prefix + "_expires_at", .string(instant?.rfc3339)),
         (prefix + "_expires_in", .number(instant.map { $0.seconds(since: now).rounded(.down) }))]
    }

    /// A claim's value on one line: strings as they are, anything else as compact JSON.
    static func claimText(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return Sanitize.oneLine(s)
        case .array(let items) where items.allSatisfy({ $0.stringValue != nil }):
            return items.compactMap(\.stringValue).map { Sanitize.oneLine($0) }.joined(separator: ", ")
        default:
            return Sanitize.oneLine(value.compact)
        }
    }
}
