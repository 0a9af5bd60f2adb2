/// A choice type's words as sentences say them: `auto, browser or device` (messages, the
/// catalogue's summaries, option help), `auto, always, never` (a list after "use one of").
public enum ChoiceWords {
    /// "a, b or c"; "a or b"; "a".
    public static func or(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        var text = words[0]
        var i = 1
        while i < words.count - 1 { text += ", " + words[i]; i += 1 }
        return text + " or " + words[words.count - 1]
    }

    /// "a, b, c".
    public static func commas(_ words: [String]) -> String {
        var text = ""
        var i = 0
        while i < words.count { text += (i == 0 ? "" : ", ") + words[i]; i += 1 }
        return text
    }

    /// Every word of a choice type, in declaration order.
    public static func words<C: CaseIterable & RawRepresentable>(_ type: C.Type) -> [String] where C.RawValue == String {
        type.allCases.map(\.rawValue)
    }
}
