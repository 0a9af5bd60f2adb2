/// `kcauth prompt --format`: text with placeholders, rendered the same by both programs.
///
/// `{profile}`, `{state}` (``SessionGlance/State``'s words), `{expires_in}` (the time the access
/// token has left, `42m`: ``duration(_:)``; empty unless `valid` with a known expiry), `{user}`
/// (the signed-in user, shown only in letters, digits and `.` `_` `@` `+` `-`: ``safeUser(_:)``;
/// empty when unknown) and `{summary}` (the time left while valid, else a short word:
/// ``summaryWord(_:)``). `{{` and `}}` are a literal `{` and `}`; any other `{` must open one of
/// those names (a `}` alone is itself).
/// The default is ``defaultText``: `work 42m`, `work expired`, `work login`, `work locked`, `work ?`.
public struct PromptFormat: Sendable, Equatable {
    public enum Placeholder: String, Sendable, CaseIterable {
        case profile, state
        case expiresIn = "expires_in"
        case user, summary
    }

    enum Part: Sendable, Equatable {
        case text([UInt8])
        case value(Placeholder)
    }

    public static let defaultText = "{profile} {summary}"

    let parts: [Part]

    /// nil: a `{` that opens no known placeholder (the caller says which ones there are).
    public init?(_ text: String) {
        var parts: [Part] = []
        var literal: [UInt8] = []
        let b = Array(text.utf8)
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "}"), i + 1 < b.count, b[i + 1] == c { literal.append(c); i += 2; continue }
            guard c == UInt8(ascii: "{") else { literal.append(c); i += 1; continue }
            if i + 1 < b.count, b[i + 1] == UInt8(ascii: "{") { literal.append(c); i += 2; continue }
            var end = i + 1
            while end < b.count, b[end] != UInt8(ascii: "}") { end += 1 }
            guard end < b.count,
                  let name = Self.placeholder(String(decoding: b[(i + 1)..<end], as: UTF8.self)) else { return nil }
            if !literal.isEmpty { parts.append(.text(literal)); literal = [] }
            parts.append(.value(name))
            i = end + 1
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
    }

    /// An index loop, not `init(rawValue:)` over the cases: the front runs this (docs/performance.md §4).
    static func placeholder(_ name: String) -> Placeholder? {
        let all = Placeholder.allCases
        var i = 0
        while i < all.count { if all[i].rawValue == name { return all[i] }; i += 1 }
        return nil
    }

    /// The line for a profile's glance, without its newline.
    public func render(profile: String, _ glance: SessionGlance) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < parts.count {
            switch parts[i] {
            case .text(let bytes): out += bytes
            case .value(.profile): out += profile.utf8
            case .value(.state): out += glance.state.rawValue.utf8
            case .value(.expiresIn): if let left = glance.expiresIn { out += Self.duration(left).utf8 }
            case .value(.user): out += Self.safeUser(glance.user ?? "").utf8
            case .value(.summary): out += Self.summary(glance).utf8
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The time left in at most two units: `45s`, `12m`, `3h`, `3h12m`, `2d`, `2d5h` (rounded down).
    public static func duration(_ seconds: Int64) -> String {
        let s = UInt64(max(0, seconds))
        var out: [UInt8] = []
        func unit(_ v: UInt64, _ u: Unicode.Scalar) {
            ASCIIText.appendDecimal(v, to: &out)
            out.append(UInt8(ascii: u))
        }
        if s < 60 {
            unit(s, "s")
        } else if s < 3_600 {
            unit(s / 60, "m")
        } else if s < 86_400 {
            unit(s / 3_600, "h")
            if s % 3_600 >= 60 { unit(s % 3_600 / 60, "m") }
        } else {
            unit(s / 86_400, "d")
            if s % 86_400 >= 3_600 { unit(s % 86_400 / 3_600, "h") }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `{summary}`: the time left while valid (`valid` without a known expiry), else a short word.
    public static func summary(_ glance: SessionGlance) -> String {
        if glance.state == .valid, let left = glance.expiresIn { return duration(left) }
        return summaryWord(glance.state)
    }

    public static func summaryWord(_ state: SessionGlance.State) -> String {
        switch state {
        case .valid: return "valid"
        case .refreshable: return "expired"
        case .loginRequired: return "login"
        case .locked: return "locked"
        case .unknown: return "?"
        }
    }

    /// A user name from the provider, made safe for a prompt: shells and tmux give meaning to
    /// `$`, `` ` ``, `%`, `#`, `\` and control characters, so only ASCII letters, digits and
    /// `.` `_` `@` `+` `-` are kept as they are; any other character becomes `?`. At most 64 bytes.
    public static func safeUser(_ user: String) -> String {
        var out: [UInt8] = []
        for c in user.utf8 {
            if out.count >= 64 { break }
            switch c {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "@"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"):
                out.append(c)
            case 0x80...0xBF:
                continue   // a UTF-8 continuation byte: its character is one `?`
            default:
                out.append(UInt8(ascii: "?"))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
