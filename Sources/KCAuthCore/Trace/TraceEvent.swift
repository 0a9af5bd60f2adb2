import KCAuthContract

/// One event of the trace: a dotted name (`http.request`, `store.read`, `flow.chosen`) and its
/// fields, in order. Values are typed so that a secret is shown redacted whatever the event.
public struct TraceEvent: Sendable {
    public var name: String
    public var fields: [TraceField]

    public init(_ name: String, _ fields: [TraceField] = []) {
        self.name = name
        self.fields = fields
    }

    /// `TraceEvent("lock.wait", ("profile", .text(p)), ("ms", .milliseconds(t)))`.
    public init(_ name: String, _ fields: (String, TraceValue)...) {
        self.init(name, fields.map { TraceField($0.0, $0.1) })
    }

    /// The event as the contract's line layout takes it: every secret already redacted.
    public var lineFields: [TraceLine.Member] { fields.map { TraceLine.Member($0.name, $0.value.lineValue) } }
}

public struct TraceField: Sendable {
    public var name: String
    public var value: TraceValue
    public init(_ name: String, _ value: TraceValue) {
        self.name = name
        self.value = value
    }
}

/// A value of a trace event. A ``Secret`` (or text with secrets in it, ``WireText``) can only be
/// shown redacted: nothing here takes its raw value out.
public indirect enum TraceValue: Sendable {
    case text(String)
    case number(Double)
    /// Seconds, shown as milliseconds rounded to a tenth.
    case milliseconds(Double)
    case flag(Bool)
    case secret(Secret)
    case wire(WireText)
    case fields([TraceField])
    case list([TraceValue])

    public static func int(_ n: Int) -> TraceValue { .number(Double(n)) }

    public static func fields(_ pairs: [(String, TraceValue)]) -> TraceValue { .fields(pairs.map { TraceField($0.0, $0.1) }) }

    var lineValue: TraceLine.Value {
        switch self {
        case .text(let s): .text(s)
        case .number(let n): .number(n)
        case .milliseconds(let seconds): .number((seconds * 10_000).rounded() / 10)
        case .flag(let b): .bool(b)
        case .secret(let secret): .text(secret.redacted)
        case .wire(let text): .text(text.redacted)
        case .fields(let fields): .object(fields.map { TraceLine.Member($0.name, $0.value.lineValue) })
        case .list(let items): .list(items.map(\.lineValue))
        }
    }
}
