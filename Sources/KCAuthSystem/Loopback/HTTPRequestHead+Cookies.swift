extension HTTPRequestHead {
    /// The value of the cookie `name` in a request head's `Cookie` fields (RFC 6265 §5.4:
    /// `name=value` pairs separated by `;`), or nil. The first pair with that name wins, as the
    /// browser sends the most specific cookie first (§5.4 step 2).
    static func cookie(_ name: String, in bytes: [UInt8]) -> String? {
        // Lines after the request line, up to the empty line that ends the head. Bytes, not a
        // String: Swift treats "\r\n" as one Character, which would not split on "\n".
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropFirst() {
            let line = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty { break }
            let field = String(decoding: line, as: UTF8.self)
            guard let colon = field.firstIndex(of: ":"),
                  field[..<colon].lowercased() == "cookie" else { continue }
            for pair in field[field.index(after: colon)...].split(separator: ";") {
                let trimmed = pair.drop(while: { $0 == " " || $0 == "\t" })
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name[...] {
                    var value = trimmed[trimmed.index(after: equals)...]
                    while value.last == " " || value.last == "\t" { value = value.dropLast() }
                    return String(value)
                }
            }
        }
        return nil
    }
}
