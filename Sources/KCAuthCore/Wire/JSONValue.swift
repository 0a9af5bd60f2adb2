import FoundationEssentials

/// Any JSON value (RFC 8259): claims kcauth does not model one by one (`realm_access`,
/// `resource_access`, a userinfo answer), and the documents `whoami`, `status` and `profiles`
/// print with `-o json`.
///
/// Objects keep their members in order, so output documents list keys in the documented order;
/// a decoded object is sorted by key (the decoder does not report the wire order).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from ordered pairs: `.fields(("a", .string("x")), ("b", .null))`.
    public static func fields(_ pairs: [(String, JSONValue)]) -> JSONValue { .object(pairs.map { Member($0.0, $0.1) }) }

    public static func string(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    public static func number(_ n: Double?) -> JSONValue { n.map(JSONValue.number) ?? .null }
    public static func strings(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var members: [Member]? { if case .object(let m) = self { return m } else { return nil } }

    /// Parses a JSON text; nil when it is not JSON.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }
}

extension JSONValue: Decodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            self = .object(try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                Member($0.stringValue, try object.decode(JSONValue.self, forKey: $0))
            })
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let b = try? single.decode(Bool.self) {
                self = .bool(b)
            } else if let n = try? single.decode(Double.self) {
                self = .number(n)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }
}

extension JSONValue {
    /// Pretty-printed with two-space indentation and a final newline; keys in member order.
    /// Written by hand rather than with `JSONEncoder` so that the layout, the key order and the
    /// number format (`300`, not `300.0`) are fixed for scripts and tests.
    public func rendered() -> String {
        var out = ""
        write(to: &out, indent: "")
        return out + "\n"
    }

    /// On one line, no spaces: `{"a":[1,2]}`.
    public var compact: String {
        var out = ""
        write(to: &out, indent: nil)
        return out
    }

    /// `indent` nil: compact.
    private func write(to out: inout String, indent: String?) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += Self.number(n)
        case .string(let s): out += Self.quoted(s)
        case .array(let items):
            writeContainer(items.map { (nil, $0) }, open: "[", close: "]", to: &out, indent: indent)
        case .object(let members):
            writeContainer(members.map { ($0.key, $0.value) }, open: "{", close: "}", to: &out, indent: indent)
        }
    }

    private func writeContainer(_ items: [(String?, JSONValue)], open: String, close: String, to out: inout String, indent: String?) {
        guard !items.isEmpty else { out += open + close; return }
        let inner = indent.map { $0 + "  " }
        out += open
        for (i, (key, value)) in items.enumerated() {
            if let inner { out += "\n" + inner }
            if let key { out += Self.quoted(key) + (inner == nil ? ":" : ": ") }
            value.write(to: &out, indent: inner)
            if i < items.count - 1 { out += "," }
        }
        if let indent { out += "\n" + indent }
        out += close
    }

    static func number(_ n: Double) -> String {
        guard n.isFinite else { return "null" }  // JSON has no NaN or infinity
        if n == n.rounded(), abs(n) < 9_007_199_254_740_992 { return String(Int64(n)) }
        return "\(n)"
    }

    /// RFC 8259 §7: quote, backslash and control characters are escaped; the rest stays UTF-8.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension JSONValue: Encodable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if n.isFinite { try c.encode(n) } else { try c.encodeNil() }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let members):
            var c = encoder.container(keyedBy: MemberKey.self)
            for m in members { try c.encode(m.value, forKey: MemberKey(stringValue: m.key)) }
        }
    }
}
