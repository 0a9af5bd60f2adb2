/// A query that arrived (the redirect to the loopback listener, a pasted address) as the trace
/// shows it: each parameter's name, and its value only when the name is known to hold nothing
/// secret (`error`, `error_description`, `iss`); `code`, `state` and anything else are secrets.
public enum TracedQuery {
    static let shownNames: Set<String> = ["error", "error_description", "error_uri", "iss"]

    /// A decoded query (a pasted address), by name.
    public static func value(parameters: [String: String]) -> TraceValue {
        .fields(parameters.sorted { $0.key < $1.key }.map { field($0.key, $0.value) })
    }

    static func field(_ name: String, _ value: String) -> TraceField {
        if shownNames.contains(name) { return TraceField(name, .text(value)) }
        return TraceField(name, .secret(Secret(TracedJSON.kinds[name] ?? .value, value)))
    }

    public static func value(_ query: String) -> TraceValue {
        .fields(query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = FormEncoding.unescape(String(parts[0]))
            let value = parts.count > 1 ? FormEncoding.unescape(String(parts[1])) : ""
            return field(name, value)
        })
    }
}
