/// `browser_command` / `--browser-command`: split into words the way a POSIX shell would (XCU
/// 2.2 Quoting) but never run by a shell, so nothing in it or in the URL is expanded. Blanks
/// separate words; `'…'` is literal; in `"…"` a backslash escapes only `\ " $ \``; outside quotes
/// a backslash escapes the next character; `''` is an empty word. Byte by byte, as a shell does
/// (the quoting characters are ASCII, so UTF-8 text between them passes through whole).
public enum BrowserCommandRule {
    public enum Refusal: Error, Sendable, Equatable {
        case unterminatedSingleQuote
        case unterminatedDoubleQuote
        case loneBackslash
        case noProgram
    }

    public static func split(_ text: String) -> Result<[String], Refusal> {
        var words: [String] = []
        var current: [UInt8] = []
        var inWord = false
        let bytes = Array(text.utf8)
        var i = 0
        func next() -> UInt8? {
            guard i < bytes.count else { return nil }
            defer { i += 1 }
            return bytes[i]
        }
        while let c = next() {
            switch c {
            case 0x20, 0x09, 0x0A:
                if inWord { words.append(String(decoding: current, as: UTF8.self)); current = []; inWord = false }
            case UInt8(ascii: "'"):
                inWord = true
                var closed = false
                while let d = next() {
                    if d == UInt8(ascii: "'") { closed = true; break }
                    current.append(d)
                }
                guard closed else { return .failure(.unterminatedSingleQuote) }
            case UInt8(ascii: "\""):
                inWord = true
                var closed = false
                while let d = next() {
                    if d == UInt8(ascii: "\"") { closed = true; break }
                    if d == UInt8(ascii: "\\") {
                        guard let e = next() else { break }
                        if !"\\\"$`".utf8.contains(e) { current.append(UInt8(ascii: "\\")) }
                        current.append(e)
                    } else {
                        current.append(d)
                    }
                }
                guard closed else { return .failure(.unterminatedDoubleQuote) }
            case UInt8(ascii: "\\"):
                inWord = true
                guard let d = next() else { return .failure(.loneBackslash) }
                if d != 0x0A { current.append(d) }
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(String(decoding: current, as: UTF8.self)) }
        return words.isEmpty ? .failure(.noProgram) : .success(words)
    }
}
