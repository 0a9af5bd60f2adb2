/// The layout of one line of kcauth's trace (`--debug`, `KCAUTH_DEBUG`): the one place both
/// programs — the front and `kcauth-full` — take it from, so a trace reads the same whichever
/// wrote a line.
///
/// Text, one readable line per event, values that are not one plain word quoted as JSON strings
/// (so a provider's text cannot start a line of its own):
///
///     2026-03-01T09:14:03.512Z +38ms http.response status=200 ms=12 url=https://kc/realms/r/token body={access_token="[access_token: 1187 bytes, sha256 3f2a9c1e]" expires_in=300}
///
/// JSON, one object per line, for tools:
///
///     {"time":"2026-03-01T09:14:03.512Z","elapsed_ms":38,"event":"http.response","status":200,…}
///
/// The values are already safe to show: a secret reaches this layer only as its redacted form.
public enum TraceLine {
    public indirect enum Value: Sendable, Equatable {
        case text(String)
        case number(Double)
        case bool(Bool)
        case object([Member])
        case list([Value])
    }

    public struct Member: Sendable, Equatable {
        public var name: String
        public var value: Value
        public init(_ name: String, _ value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// The line, with its newline. `time`: seconds since the epoch; `elapsed`: seconds since the
    /// program started tracing.
    public static func render(_ mode: TraceMode, time: Double, elapsed: Double, event: String, fields: [Member]) -> String {
        let elapsedMs = (max(elapsed, 0) * 1000).rounded()
        switch mode {
        case .text:
            var out = timestamp(time) + " +" + number(elapsedMs) + "ms " + event
            for field in fields {
                out += " " + field.name + "="
                text(field.value, into: &out)
            }
            return out + "\n"
        case .json:
            var out = "{\"time\":\"" + timestamp(time) + "\",\"elapsed_ms\":" + number(elapsedMs) + ",\"event\":"
            quote(event, into: &out)
            for field in fields {
                out += ","
                quote(field.name, into: &out)
                out += ":"
                json(field.value, into: &out)
            }
            return out + "}\n"
        }
    }

    /// `2026-03-01T09:14:03.512Z`: RFC 3339 UTC with milliseconds.
    public static func timestamp(_ time: Double) -> String {
        let clamped = time.isFinite ? min(max(time, 0), 253_402_300_799) : 0
        let seconds = clamped.rounded(.down)
        let millis = min(Int64(((clamped - seconds) * 1000).rounded(.down)), 999)
        var whole = Timestamp.format(seconds)
        whole.removeLast()   // the Z
        let digits = Timestamp.decimal(millis)
        return whole + "." + String(repeating: "0", count: 3 - digits.utf8.count) + digits + "Z"
    }

    private static func text(_ value: Value, into out: inout String) {
        switch value {
        case .text(let s):
            if isWord(s) { out += s } else { quote(s, into: &out) }
        case .number(let n):
            out += number(n)
        case .bool(let b):
            out += b ? "true" : "false"
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += " " }
                out += (isWord(member.name) ? member.name : quoted(member.name)) + "="
                text(member.value, into: &out)
            }
            out += "}"
        case .list(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += " " }
                text(item, into: &out)
            }
            out += "]"
        }
    }

    private static func json(_ value: Value, into out: inout String) {
        switch value {
        case .text(let s):
            quote(s, into: &out)
        case .number(let n):
            out += n.isFinite ? number(n) : "null"
        case .bool(let b):
            out += b ? "true" : "false"
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                quote(member.name, into: &out)
                out += ":"
                json(member.value, into: &out)
            }
            out += "}"
        case .list(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                json(item, into: &out)
            }
            out += "]"
        }
    }

    /// A value shown bare in a text line: printable ASCII without spaces, quotes, `=` or brackets.
    static func isWord(_ s: String) -> Bool {
        guard !s.isEmpty else { return false }
        for c in s.utf8 {
            guard c > 0x20, c < 0x7F, c != UInt8(ascii: "\""), c != UInt8(ascii: "="), c != UInt8(ascii: "{"),
                  c != UInt8(ascii: "}"), c != UInt8(ascii: "["), c != UInt8(ascii: "]"), c != UInt8(ascii: "\\") else { return false }
        }
        return true
    }

    static func quoted(_ s: String) -> String {
        var out = ""
        quote(s, into: &out)
        return out
    }

    /// RFC 8259 §7: quote, backslash and every control character escaped (a newline from a
    /// provider stays inside its line).
    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (scalar.value >= 0x80 && scalar.value < 0xA0)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = Array("0123456789abcdef".unicodeScalars)
                out += "\\u"
                for shift in [12, 8, 4, 0] { out.unicodeScalars.append(hex[Int((scalar.value >> UInt32(shift)) & 0xF)]) }
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Whole numbers without a fraction; others with up to three decimals.
    static func number(_ n: Double) -> String {
        guard n.isFinite else { return "0" }
        if n == n.rounded(), abs(n) < 9_007_199_254_740_992 {
            return n < 0 ? "-" + Timestamp.decimal(Int64(-n)) : Timestamp.decimal(Int64(n))
        }
        let thousandths = (n * 1000).rounded()
        guard abs(thousandths) < 9_007_199_254_740_992 else { return "\(n)" }
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = Int64(abs(thousandths))
        var fraction = Timestamp.decimal(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.utf8.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + Timestamp.decimal(magnitude / 1000) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
